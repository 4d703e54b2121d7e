// The Search construct alone: the lake's Glue database and the region's Athena workgroup, whose results
// go to its own bucket.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { LOGS_DATABASE } from '../../core/lake/layout';
import { Search } from '../../infra/search/search';
import { bareStack, logicalId, nagErrors, REGION } from './support';

describe('the Search construct on a bare stack', () => {
  it('catalogs the lake and queries it through the Athena workgroup, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('SearchTest', { nag: true });
    const search = new Search(stack, 'Search', { removalPolicy: RemovalPolicy.RETAIN, accessLogs: fakes.bucket('AccessLogs') });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Glue::Database', { DatabaseInput: Match.objectLike({ Name: LOGS_DATABASE }) });
    template.hasResourceProperties('AWS::Athena::WorkGroup', {
      Name: `caracal-${REGION}`,
      WorkGroupConfiguration: Match.objectLike({
        ResultConfiguration: Match.objectLike({
          OutputLocation: { 'Fn::Join': ['', ['s3://', { Ref: logicalId(search.resultsBucket) }, '/results/']] },
        }),
      }),
    });
    expect(nagErrors(stack)).toEqual([]);
  });
});
