// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SecurityCard } from '../../web/src/features/home/SecurityCard';
import type { HomeQuery } from '../../web/src/lib/graphql/types';
import { renderInApp } from './support/render';

afterEach(cleanup);

const appConfig: HomeQuery['appConfig'] = {
  version: '1.0.0',
  stage: 'dev',
  region: 'us-east-1',
  accountId: '123456789012',
  created: '2026-01-01T00:00:00.000Z',
  passwordMinLength: 12,
  mfaMode: 'OPTIONAL',
  mfaRequired: false,
};

describe('the home sign-in policy card', () => {
  it('says MFA is required once the organisation requires it, although the user pool mode is OPTIONAL', () => {
    renderInApp(<SecurityCard appConfig={{ ...appConfig, mfaRequired: true }} />);
    expect(screen.getByText('Required')).toBeTruthy();
    expect(screen.queryByText('Optional')).toBeNull();
  });

  it('says MFA is optional while nothing requires it', () => {
    renderInApp(<SecurityCard appConfig={appConfig} />);
    expect(screen.getByText('Optional')).toBeTruthy();
  });
});
