import { Amplify } from 'aws-amplify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureAuth } from '../../web/src/lib/auth/configureAuth';
import { testConfig } from './support/config';

afterEach(() => {
  vi.restoreAllMocks();
});

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

  it('configures the local endpoint without Amplify warning about it on every page load', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    configureAuth({ ...testConfig, userPoolEndpoint: 'http://localhost:3000/cognito' });
    expect(warn).not.toHaveBeenCalled();
    console.warn('other warnings still show');
    expect(warn).toHaveBeenCalledWith('other warnings still show');
  });
});
