// @vitest-environment jsdom
// The General settings page: what it shows (the deployment's sign-in policy read-only), the form's rules
// and messages from core, saving, and what a user who may only read it sees.
import { notifications as snackbars } from '@mantine/notifications';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';

import { afterEach, describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions';
import { FREE_TEXT_CHARACTERS, ORGANIZATION_NAME_TOO_LONG } from '../../core/validation/general-settings';
import { FIELD_REQUIRED } from '../../core/validation/generic';
import { GeneralSettingsPage, SAVED_MESSAGE } from '../../web/src/screens/GeneralSettings/GeneralSettingsPage';
import { renderWithAnswers } from './support/api';
import { installBrowserStandIns } from './support/render';

interface Settings {
  organizationName: string;
  mfaRequired: boolean;
  mfaMode: string;
  passwordMinLength: number;
  sessionHours: number | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

function renderPage(permissions: Permission[], initial: Partial<Settings> = {}) {
  installBrowserStandIns();
  let settings: Settings = {
    organizationName: 'Acme',
    mfaRequired: false,
    mfaMode: 'OPTIONAL',
    passwordMinLength: 12,
    sessionHours: null,
    updatedAt: null,
    updatedBy: null,
    ...initial,
  };
  const updates: unknown[] = [];
  const answer = (name: string, variables: Record<string, unknown>) => {
    switch (name) {
      case 'MyPermissions':
        return { me: { __typename: 'User', id: 'u-1', role: { __typename: 'Role', id: 'r', name: 'Role', permissions } } };
      case 'GeneralSettings':
        return { generalSettings: { __typename: 'GeneralSettings', ...settings } };
      case 'UpdateGeneralSettings': {
        const input = variables.input as Partial<Settings>;
        updates.push(input);
        settings = { ...settings, ...input, updatedAt: '2026-11-21T12:00:00.000Z', updatedBy: 'ada@example.com' };
        return { updateGeneralSettings: { __typename: 'GeneralSettings', ...settings } };
      }
      default:
        throw new Error(`unexpected ${name}`);
    }
  };
  renderWithAnswers(<GeneralSettingsPage />, (name, variables) => ({ data: answer(name, variables) }));
  return { updates };
}

afterEach(() => {
  act(() => snackbars.clean());
  cleanup();
});

const nameInput = () => screen.getByLabelText(/Organization name/) as HTMLInputElement;
const save = () => screen.getByRole('button', { name: 'Save Changes' }) as HTMLButtonElement;
const mfaSwitch = () => screen.getByRole('switch', { name: /Require multi-factor authentication/ }) as HTMLInputElement;

describe('the General settings page', () => {
  it('shows the settings and the deployment sign-in policy read-only', async () => {
    renderPage(['GeneralSettingsModify', 'GeneralSettingsRead']);
    expect(screen.getByRole('heading', { name: 'General settings' })).toBeTruthy();
    await waitFor(() => expect(nameInput().value).toBe('Acme'));
    expect(document.title).toBe('General settings · Caracal');
    expect(mfaSwitch().checked).toBe(false);
    expect(screen.getByText('12 characters, with uppercase, lowercase, number and symbol')).toBeTruthy();
    expect(screen.getByText('Optional')).toBeTruthy();
    expect(screen.getByText('24 hours before signing in again')).toBeTruthy();
    expect(screen.getByText(/Set when Caracal is deployed/)).toBeTruthy();
    expect(save().disabled).toBe(true);
  });

  it('shows the rules of the organization name once the field is touched', async () => {
    renderPage(['GeneralSettingsModify']);
    await waitFor(() => expect(nameInput().value).toBe('Acme'));
    for (const [value, message] of [
      ['', FIELD_REQUIRED],
      ['<Acme>', FREE_TEXT_CHARACTERS],
      ['x'.repeat(65), ORGANIZATION_NAME_TOO_LONG],
    ]) {
      fireEvent.change(nameInput(), { target: { value } });
      fireEvent.blur(nameInput());
      expect(await screen.findByText(message)).toBeTruthy();
      await waitFor(() => expect(save().disabled).toBe(true));
    }
  });

  it('saves the changes and says so', async () => {
    const { updates } = renderPage(['GeneralSettingsModify']);
    await waitFor(() => expect(nameInput().value).toBe('Acme'));
    fireEvent.change(nameInput(), { target: { value: '  Caracal Labs ' } });
    fireEvent.click(mfaSwitch());
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    expect(await screen.findByText(SAVED_MESSAGE)).toBeTruthy();
    expect(updates).toEqual([{ organizationName: 'Caracal Labs', mfaRequired: true }]);
    await waitFor(() => expect(screen.getByText('Last changed 11/21/2026 12:00 UTC by ada@example.com')).toBeTruthy());
    expect(save().disabled).toBe(true);
  });

  it('keeps MFA on, without offering to turn it off, when the deployment requires it', async () => {
    const { updates } = renderPage(['GeneralSettingsModify'], { mfaMode: 'REQUIRED', mfaRequired: true, sessionHours: 8 });
    await waitFor(() => expect(mfaSwitch().checked).toBe(true));
    expect(mfaSwitch().disabled).toBe(true);
    expect(screen.getByText(/Required by the deployment/)).toBeTruthy();
    expect(screen.getByText('8 hours before signing in again')).toBeTruthy();
    fireEvent.change(nameInput(), { target: { value: 'Other' } });
    await waitFor(() => expect(save().disabled).toBe(false));
    fireEvent.click(save());
    await screen.findByText(SAVED_MESSAGE);
    expect(updates).toEqual([{ organizationName: 'Other' }]);
  });

  it('lets a user who may only read see the settings without changing them', async () => {
    renderPage(['GeneralSettingsRead']);
    await waitFor(() => expect(nameInput().value).toBe('Acme'));
    expect(nameInput().readOnly).toBe(true);
    expect(mfaSwitch().disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
  });
});
