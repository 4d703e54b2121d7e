import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import type { RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { InitialEntry } from 'react-router-dom';
import type { Permission } from '../../../core/permissions';
import type { Auth } from '../../../web/src/lib/auth/AuthContext';
import { CURRENT_USER_QUERY } from '../../../web/src/app/shell/shell.operations';
import { MY_PERMISSIONS_QUERY } from '../../../web/src/lib/permissions/permissions.operations';
import { fakeAuth, renderInApp, signedInAs } from './render';

/** The API's answer to the permissions query for a user whose role holds `permissions`; answers any number of times. */
export function permissionsMock(permissions: readonly Permission[], roleName = 'Analyst'): MockLink.MockedResponse {
  return {
    request: { query: MY_PERMISSIONS_QUERY },
    result: {
      data: {
        me: {
          __typename: 'User',
          id: 'u-1',
          role: { __typename: 'Role', id: `role-${roleName}`, name: roleName, permissions: [...permissions] },
        },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

interface Options {
  readonly permissions?: readonly Permission[];
  readonly mocks?: readonly MockLink.MockedResponse[];
  readonly auth?: Auth;
  readonly at?: InitialEntry;
}

/**
 * Renders inside the app's providers and a mocked API whose signed-in user holds `permissions`; `mocks` come
 * first, so a test can answer the profile menu's query its own way.
 */
export function renderWithApi(
  ui: ReactElement,
  { permissions = [], mocks = [], auth = fakeAuth(signedInAs), at = '/' }: Options = {},
): RenderResult {
  return renderInApp(<MockedProvider mocks={[...mocks, permissionsMock(permissions), currentUserMock()]}>{ui}</MockedProvider>, {
    auth,
    at,
  });
}

interface CurrentUserAnswer {
  readonly givenName?: string | null;
  readonly familyName?: string | null;
  readonly status?: string;
  readonly roleName?: string;
}

/** The API's answer to the profile menu's query; answers any number of times. */
export function currentUserMock({
  givenName = 'Ada',
  familyName = 'Lovelace',
  status = 'CONFIRMED',
  roleName = 'Admin',
}: CurrentUserAnswer = {}): MockLink.MockedResponse {
  return {
    request: { query: CURRENT_USER_QUERY },
    result: {
      data: {
        me: {
          __typename: 'User',
          id: 'u-1',
          email: 'ada@example.com',
          givenName,
          familyName,
          name: [givenName, familyName].filter(Boolean).join(' ') || 'ada@example.com',
          status,
          role: { __typename: 'Role', id: `role-${roleName}`, name: roleName },
        },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}
