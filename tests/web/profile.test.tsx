// @vitest-environment jsdom
import { Notifications, notifications } from '@mantine/notifications';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileMenu } from '../../web/src/app/shell/ProfileMenu';
import { UPDATE_PROFILE_MUTATION } from '../../web/src/app/shell/account/profile.operations';
import { fakeAuth, signedInAs } from './support/render';
import { currentUserMock, renderWithApi } from './support/shell';

afterEach(() => {
  cleanup();
  notifications.clean();
});

type Sent = Record<string, unknown>;

function updateProfileMock(answer: 'ok' | 'refused', sent: Sent[]) {
  return {
    request: {
      query: UPDATE_PROFILE_MUTATION,
      variables: (variables: Sent) => {
        sent.push(variables);
        return true;
      },
    },
    result:
      answer === 'ok'
        ? {
            data: {
              updateProfile: { __typename: 'User', id: 'u-1', givenName: 'Augusta', familyName: 'King', name: 'Augusta King' },
            },
          }
        : { errors: [{ message: 'first name: must not contain control characters', extensions: { errorType: 'InvalidInput' } }] },
  };
}

async function openProfileSettings(mocks: ReturnType<typeof updateProfileMock>[] = [], status = 'CONFIRMED') {
  renderWithApi(
    <>
      <Notifications />
      <ProfileMenu />
    </>,
    { auth: fakeAuth(signedInAs), mocks: [currentUserMock({ status }), ...mocks] },
  );
  fireEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  const item = await screen.findByRole('menuitem', { name: 'Profile Settings' });
  await waitFor(() =>
    expect(item.hasAttribute('disabled') || item.getAttribute('data-disabled') === 'true').toBe(status !== 'CONFIRMED'),
  );
  return item;
}

const firstName = () => screen.getByRole('textbox', { name: 'First Name' });
const lastName = () => screen.getByRole('textbox', { name: 'Last Name' });
const save = () => screen.getByRole('button', { name: 'Save Changes' });

describe('Profile Settings', () => {
  it('opens on the Profile Settings tab with the current names', async () => {
    fireEvent.click(await openProfileSettings());
    const dialog = await screen.findByRole('dialog', { name: 'Profile Settings' });
    expect(within(dialog).getByRole('tab', { name: 'Profile Settings' }).getAttribute('aria-selected')).toBe('true');
    expect((firstName() as HTMLInputElement).value).toBe('Ada');
    expect((lastName() as HTMLInputElement).value).toBe('Lovelace');
    expect(save().hasAttribute('disabled')).toBe(true);
  });

  it('requires both names, with the user form messages', async () => {
    fireEvent.click(await openProfileSettings());
    await screen.findByRole('dialog', { name: 'Profile Settings' });
    fireEvent.change(firstName(), { target: { value: ' ' } });
    fireEvent.blur(firstName());
    fireEvent.change(lastName(), { target: { value: '' } });
    fireEvent.blur(lastName());
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(await screen.findByText('Last name is required')).toBeTruthy();
    expect(save().hasAttribute('disabled')).toBe(true);
  });

  it('saves the names and says so', async () => {
    const sent: Sent[] = [];
    fireEvent.click(await openProfileSettings([updateProfileMock('ok', sent)]));
    await screen.findByRole('dialog', { name: 'Profile Settings' });
    fireEvent.change(firstName(), { target: { value: ' Augusta ' } });
    fireEvent.change(lastName(), { target: { value: 'King' } });
    await waitFor(() => expect(save().hasAttribute('disabled')).toBe(false));
    fireEvent.click(save());
    expect(await screen.findByText('User profile updated successfully')).toBeTruthy();
    expect(sent).toEqual([{ input: { givenName: 'Augusta', familyName: 'King' } }]);
  });

  it('says when the profile could not be updated', async () => {
    fireEvent.click(await openProfileSettings([updateProfileMock('refused', [])]));
    await screen.findByRole('dialog', { name: 'Profile Settings' });
    fireEvent.change(firstName(), { target: { value: 'Augusta' } });
    await waitFor(() => expect(save().hasAttribute('disabled')).toBe(false));
    fireEvent.click(save());
    expect(await screen.findByText('Unable to update profile')).toBeTruthy();
    expect(screen.getByText('First name: must not contain control characters')).toBeTruthy();
  });

  it('is disabled for a single-sign-on user', async () => {
    const item = await openProfileSettings([], 'EXTERNAL_PROVIDER');
    fireEvent.click(item);
    expect(screen.queryByRole('dialog', { name: 'Profile Settings' })).toBeNull();
  });
});

describe('a single-sign-on user without a name from their identity provider', () => {
  it('is told to ask their administrator, once', async () => {
    renderWithApi(
      <>
        <Notifications />
        <ProfileMenu />
      </>,
      {
        auth: fakeAuth(signedInAs),
        mocks: [currentUserMock({ status: 'EXTERNAL_PROVIDER', givenName: null, familyName: null })],
      },
    );
    expect(await screen.findByText('SAML User Missing Attributes')).toBeTruthy();
    expect(screen.getByText('Contact your administrator to update the attribute mappings in your SAML provider')).toBeTruthy();
  });

  it('is not warned when the names arrived', async () => {
    renderWithApi(
      <>
        <Notifications />
        <ProfileMenu />
      </>,
      { auth: fakeAuth(signedInAs), mocks: [currentUserMock({ status: 'EXTERNAL_PROVIDER' })] },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
    expect(await screen.findByText('Ada Lovelace')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('SAML User Missing Attributes')).toBeNull();
  });
});
