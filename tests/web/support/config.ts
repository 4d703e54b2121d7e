import type { WebConfig } from '../../../core/web-config';

/** A complete config.json for tests. */
export const testConfig: WebConfig = {
  region: 'us-east-1',
  userPoolId: 'us-east-1_test',
  userPoolClientId: 'client',
  graphqlUrl: 'http://127.0.0.1:1/graphql',
  authFlowType: 'USER_PASSWORD_AUTH',
  stage: 'test',
  version: '0.0.0-test',
  passwordMinLength: 12,
  refreshTokenHours: 24,
};
