import { Amplify } from 'aws-amplify';
import { describe, expect, it } from 'vitest';
import { configureAuth } from '../../web/src/lib/auth/configureAuth';
import { testConfig } from './support/config';

describe('configuring Amplify Auth from config.json', () => {
  it('points at the user pool and its app client', () => {
    configureAuth(testConfig);
    const cognito = Amplify.getConfig().Auth?.Cognito;
    expect(cognito?.userPoolId).toBe('us-east-1_test');
    expect(cognito?.userPoolClientId).toBe('client');
    expect(cognito?.userPoolEndpoint).toBeUndefined();
  });

  it('uses the local stand-in endpoint when config.json names one', () => {
    configureAuth({ ...testConfig, userPoolEndpoint: 'http://localhost:3000/cognito' });
    expect(Amplify.getConfig().Auth?.Cognito?.userPoolEndpoint).toBe('http://localhost:3000/cognito');
  });
});
