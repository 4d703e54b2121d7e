// @vitest-environment jsdom
// Every settings page opens to each user its menu entry shows to: the menu, the route guard and the API's
// permission map agree, so no entry leads to Permission Denied.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { hasPermissions, OPERATION_ACCESS, type Permission } from '../../core/permissions';
import { AppRoutes } from '../../web/src/app/AppRoutes';
import { SETTINGS_MENU } from '../../web/src/app/shell/navigation';
import { GENERAL_SETTINGS_QUERY } from '../../web/src/screens/GeneralSettings/generalSettings.operations';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

const generalSettings = {
  request: { query: GENERAL_SETTINGS_QUERY },
  result: {
    data: {
      generalSettings: {
        __typename: 'GeneralSettings',
        organizationName: 'Acme',
        mfaRequired: false,
        mfaMode: 'OPTIONAL',
        passwordMinLength: 12,
        sessionHours: null,
        updatedAt: null,
        updatedBy: null,
      },
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

describe('the General settings page', () => {
  const general = SETTINGS_MENU.find((entry) => entry.label === 'General')!;

  it('is readable through the API by everyone its menu entry shows to', () => {
    const access = OPERATION_ACCESS['Query.generalSettings'];
    for (const permission of general.permissions) {
      expect('anyOf' in access && hasPermissions([permission], access.anyOf), permission).toBe(true);
    }
  });

  it.each<Permission>(['GeneralSettingsRead', 'RuleRead', 'PolicyModify'])(
    'opens, read-only, to a user holding only %s',
    async (held) => {
      renderWithApi(<AppRoutes />, { at: general.path, permissions: [held], mocks: [generalSettings] });
      expect(await screen.findByDisplayValue('Acme')).toBeTruthy();
      expect(screen.queryByText(/don't have the proper permissions/)).toBeNull();
      expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    },
  );
});
