// The SPA's Content-Security-Policy on CloudFront: built from the deployment's own endpoints (its AppSync
// GraphQL URL, its region's Cognito user-pool API and the lake bucket's regional S3 endpoint, where the browser
// PUTs lookup-table files by pre-signed URL), with no wildcard host; and the policy's rules.
import { RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../core/content-security-policy';
import { Web } from '../../infra/web/web';
import { bareStack, logicalId, nagErrors, REGION, siteAssetPath, synthesizedStack } from './support';

let template: Template;

beforeAll(() => ({ template } = synthesizedStack()));

/** The CloudFront policy with each CloudFormation reference written as `<Ref>` or `<Resource.Attribute>`. */
function deployedPolicy(from = template): string {
  const [policy] = Object.values(from.findResources('AWS::CloudFront::ResponseHeadersPolicy'));
  const value = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
  const parts: unknown[] = typeof value === 'string' ? [value] : value['Fn::Join'][1];
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const { Ref, 'Fn::GetAtt': getAtt } = part as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
      return Ref ? `<${Ref}>` : `<${getAtt![0]}.${getAtt![1]}>`;
    })
    .join('');
}

/** The lake bucket's logical id: the bucket the API's LAKE_BUCKET names (where lookup uploads are PUT). */
function lakeBucketId(): string {
  const functions = template.findResources('AWS::Lambda::Function');
  for (const fn of Object.values(functions)) {
    const ref = fn.Properties?.Environment?.Variables?.LAKE_BUCKET as { Ref?: string } | undefined;
    if (ref?.Ref) return ref.Ref;
  }
  throw new Error('no function names LAKE_BUCKET');
}

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim().split(' '))
    .find(([n]) => n === name)
    ?.slice(1);

describe('the CloudFront Content-Security-Policy', () => {
  it("lets the SPA connect to its own origin, its GraphQL API, its region's user-pool API and the lake bucket's regional endpoint only", () => {
    const [api] = Object.keys(template.findResources('AWS::AppSync::GraphQLApi'));
    expect(directive(deployedPolicy(), 'connect-src')).toEqual([
      "'self'",
      `<${api}.GraphQLUrl>`,
      'https://cognito-idp.eu-west-1.<AWS::URLSuffix>',
      `https://<${lakeBucketId()}.RegionalDomainName>`,
    ]);
  });

  it('names no wildcard host, and keeps scripts, frames, objects and forms to what the SPA needs', () => {
    const policy = deployedPolicy();
    expect(policy).not.toContain('*');
    expect(policy).not.toContain('amazoncognito.com');
    expect(directive(policy, 'script-src')).toEqual(["'self'"]);
    expect(directive(policy, 'worker-src')).toEqual(["'self'"]);
    expect(directive(policy, 'object-src')).toEqual(["'none'"]);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(policy, 'base-uri')).toEqual(["'self'"]);
    expect(directive(policy, 'form-action')).toEqual(["'self'"]);
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it('is the policy core/ defines, with the endpoints filled in', () => {
    const [api] = Object.keys(template.findResources('AWS::AppSync::GraphQLApi'));
    expect(deployedPolicy()).toBe(
      contentSecurityPolicy([
        `<${api}.GraphQLUrl>`,
        'https://cognito-idp.eu-west-1.<AWS::URLSuffix>',
        `https://<${lakeBucketId()}.RegionalDomainName>`,
      ]),
    );
  });
});

describe('contentSecurityPolicy', () => {
  it('refuses an endpoint that would widen the policy or add a directive', () => {
    for (const endpoint of [
      'https://*.amazonaws.com',
      'https://a.example; script-src *',
      'https://a.example https://b',
      '',
      "'unsafe-eval'",
    ])
      expect(() => contentSecurityPolicy([endpoint])).toThrow(/must be one URL, without wildcards/);
  });

  it("connects to the SPA's own origin only when it is given no endpoint", () => {
    expect(directive(contentSecurityPolicy([]), 'connect-src')).toEqual(["'self'"]);
  });
});

describe('the Web construct on a bare stack', () => {
  it('serves the SPA it is given from its private bucket, with no unsuppressed cdk-nag finding', () => {
    const { stack, fakes } = bareStack('WebTest', { nag: true });
    const graphqlUrl = 'https://api.example.com/graphql';
    const uploads = fakes.bucket('Uploads');
    const web = new Web(stack, 'Web', {
      removalPolicy: RemovalPolicy.RETAIN,
      accessLogs: fakes.bucket('AccessLogs'),
      uploadBucket: uploads,
      siteAssetPath,
      config: {
        region: REGION,
        userPoolId: 'pool',
        userPoolClientId: 'client',
        graphqlUrl,
        authFlowType: 'USER_SRP_AUTH',
        stage: 'test',
        version: '1.0.0',
        passwordMinLength: 12,
        refreshTokenHours: 8,
      },
    });
    const bare = Template.fromStack(stack);
    bare.resourceCountIs('AWS::CloudFront::Distribution', 1);
    bare.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    bare.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: logicalId(web.siteBucket) },
      DistributionPaths: ['/index.html', '/config.json'],
      SourceObjectKeys: [Match.anyValue(), Match.anyValue()],
    });
    expect(directive(deployedPolicy(bare), 'connect-src')).toEqual([
      "'self'",
      graphqlUrl,
      `https://cognito-idp.${REGION}.<AWS::URLSuffix>`,
      `https://<${logicalId(uploads)}.RegionalDomainName>`,
    ]);
    expect(nagErrors(stack)).toEqual([]);
  });
});
