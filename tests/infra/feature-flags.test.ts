// The deployment's feature flags reach the api function's environment, every flag resolved; bad choices are refused.
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/app';
import { FEATURE_FLAG_DEFAULTS } from '../../core/feature-flags';
import { stackName, validateDeploymentConfig, type DeploymentConfig } from '../../infra/config';
import { PROD_CONFIG, REGION, siteAssetPath } from './support';

describe('feature flags in the deployment configuration', () => {
  it('gives the api function every flag, the deployment’s choices over the defaults', () => {
    const config: DeploymentConfig = { ...PROD_CONFIG, featureFlags: { ENABLE_NOTIFICATION_CENTER: 'control' } };
    const app = buildApp(config, { siteAssetPath, bundle: false });
    const template = Template.fromStack(app.node.findChild(stackName(config, REGION)) as Stack);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          FEATURE_FLAGS: JSON.stringify({ ...FEATURE_FLAG_DEFAULTS, ENABLE_NOTIFICATION_CENTER: 'control' }),
        }),
      },
    });
  });

  it('refuses an unknown flag and a value other than on or control', () => {
    const featureFlags = { ENABLE_CUSTOM_DASHBOARDS: 'yes', NOPE: 'on' } as unknown as DeploymentConfig['featureFlags'];
    expect(validateDeploymentConfig({ ...PROD_CONFIG, featureFlags })).toEqual([
      'featureFlags.ENABLE_CUSTOM_DASHBOARDS must be "on" or "control"',
      "featureFlags names an unknown flag 'NOPE'",
    ]);
  });
});
