// The API's app config carries the deployment's feature flags, read from the api function's environment.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appConfig } from '../../../functions/api/resolvers/app-config';
import { ENV } from '../../../functions/lib/env';

vi.mock('../../../functions/lib/app-config/repository', () => ({
  deploymentCreated: () => Promise.resolve('2026-01-01T00:00:00.000Z'),
}));
vi.mock('../../../functions/lib/settings', () => ({
  deploymentSignInPolicy: () => ({ passwordMinLength: 12, mfaMode: 'OPTIONAL' }),
  mfaRequired: () => Promise.resolve(false),
}));

const environment = {
  [ENV.accountId]: '000000000000',
  [ENV.awsPartition]: 'aws',
  [ENV.awsRegion]: 'us-east-1',
  [ENV.stage]: 'test',
  [ENV.version]: '0.0.0-test',
};

beforeEach(() => {
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
});
afterEach(() => vi.unstubAllEnvs());

describe('the app config’s feature flags', () => {
  it('answers every flag with its default when the deployment chose none', async () => {
    vi.stubEnv(ENV.featureFlags, '');
    expect((await appConfig()).featureFlags).toEqual([
      { name: 'ENABLE_NOTIFICATION_CENTER', value: 'on', enabled: true },
      { name: 'ENABLE_CORRELATION_RULE_FULL_PAGE_VIEW', value: 'control', enabled: false },
      { name: 'ENABLE_CUSTOM_DASHBOARDS', value: 'control', enabled: false },
      { name: 'ENABLE_ALERT_RBAC_LOG_TYPES', value: 'control', enabled: false },
      { name: 'ENABLE_TORQ_DESTINATION', value: 'control', enabled: false },
    ]);
  });

  it('answers the deployment’s choice from the function’s environment', async () => {
    vi.stubEnv(ENV.featureFlags, JSON.stringify({ ENABLE_NOTIFICATION_CENTER: 'control', ENABLE_CUSTOM_DASHBOARDS: 'on' }));
    const flags = (await appConfig()).featureFlags;
    expect(flags).toContainEqual({ name: 'ENABLE_NOTIFICATION_CENTER', value: 'control', enabled: false });
    expect(flags).toContainEqual({ name: 'ENABLE_CUSTOM_DASHBOARDS', value: 'on', enabled: true });
  });
});
