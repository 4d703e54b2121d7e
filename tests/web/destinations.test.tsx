// @vitest-environment jsdom
// Alert destinations in the web app: the list (empty state, load failure, read-only rows), the type chooser
// (search, Torq hidden), the form with the specification's messages, secrets shown masked and sent back
// untouched so the server keeps them, Send Test Alert showing the service's answer, and DestinationIcons.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { DESTINATION_TYPES, DESTINATION_TYPE_INFO, MASKED_SECRET, MESSAGES } from '../../core/destinations';
import { DestinationIcons, NO_DESTINATIONS } from '../../web/src/features/destinations/DestinationIcons';
import { DestinationForm } from '../../web/src/features/destinations/DestinationForm';
import { destinationInput, initialValues } from '../../web/src/features/destinations/destinationForm';
import type { DestinationFieldsFragment } from '../../web/src/lib/graphql/types';
import { DestinationsPage } from '../../web/src/screens/Destinations/DestinationsPage';
import {
  DESTINATIONS_QUERY,
  SEND_TEST_ALERT,
  UPDATE_DESTINATION,
} from '../../web/src/screens/Destinations/destinations.operations';
import { NewDestinationPage } from '../../web/src/screens/Destinations/NewDestinationPage';
import { useDestinationEditor } from '../../web/src/screens/Destinations/useDestinationEditor';
import { renderWithApi } from './support/shell';
import { theme } from '../../web/src/app/theme';

afterEach(cleanup);

const destination = (
  overrides: Partial<DestinationFieldsFragment> = {},
): DestinationFieldsFragment & { __typename: 'Destination' } => ({
  __typename: 'Destination',
  id: '3f1c2a4e-1111-4a4a-8a8a-000000000001',
  outputId: '3f1c2a4e-1111-4a4a-8a8a-000000000001',
  outputType: 'slack',
  displayName: 'Security team',
  defaultForSeverity: ['CRITICAL', 'HIGH'],
  alertTypes: ['ALERT'],
  logTypes: [],
  outputConfig: JSON.stringify({ webhookURL: MASKED_SECRET }),
  createdAt: '2026-11-20T10:00:00Z',
  createdBy: 'ada@example.com',
  lastModifiedTime: '2026-11-21T10:00:00Z',
  lastModifiedBy: 'ada@example.com',
  revision: 3,
  verificationStatus: 'NOT_VERIFIED',
  verifiedAt: null,
  ...overrides,
});

const listMock = (destinations: DestinationFieldsFragment[]) => ({
  request: { query: DESTINATIONS_QUERY },
  result: { data: { destinations } },
  maxUsageCount: Number.POSITIVE_INFINITY,
});

describe('the destinations list', () => {
  it('says when there are none, with a Create one link for those who may', async () => {
    renderWithApi(<DestinationsPage />, { permissions: ['DestinationModify'], mocks: [listMock([])] });
    expect(await screen.findByText('You have not configured any destinations.')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'Create one' });
    expect(link.getAttribute('href')).toBe('/configure/destinations/new/');
  });

  it('says it could not fetch the destinations', async () => {
    renderWithApi(<DestinationsPage />, {
      permissions: ['DestinationRead'],
      mocks: [{ request: { query: DESTINATIONS_QUERY }, error: new Error('network down') }],
    });
    expect(await screen.findByText('Could not fetch your destinations')).toBeTruthy();
  });

  it('lists type, name, severities, alert types and log types; read-only users get no actions', async () => {
    renderWithApi(<DestinationsPage />, {
      permissions: ['DestinationRead'],
      mocks: [
        listMock([
          destination(),
          destination({
            id: 'b',
            outputId: 'b',
            outputType: 'pagerduty',
            displayName: 'On call',
            logTypes: ['AWS.CloudTrail'],
            verificationStatus: 'VERIFIED',
            verifiedAt: '2026-11-22T10:00:00Z',
          }),
        ]),
      ],
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Not verified')).toBeTruthy();
    expect(within(table).getAllByText('Verified')).toHaveLength(2); // the column and the badge
    expect(within(table).getByText('Security team')).toBeTruthy();
    expect(within(table).getByText('PagerDuty')).toBeTruthy();
    expect(within(table).getByText('AWS.CloudTrail')).toBeTruthy();
    expect(within(table).getByText('All log types')).toBeTruthy();
    expect(within(table).getAllByText('Critical').length).toBe(2);
    expect(screen.queryByRole('button', { name: /Send Test Alert/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add Destination' })).toBeNull();
  });

  it('sends a test alert from a row and shows the service’s answer', async () => {
    const user = userEvent.setup();
    renderWithApi(<DestinationsPage />, {
      permissions: ['DestinationModify'],
      mocks: [
        { ...listMock([destination()]), maxUsageCount: 1 },
        {
          request: { query: SEND_TEST_ALERT, variables: { input: { id: destination().id, destination: null } } },
          result: {
            data: { sendTestAlert: { __typename: 'TestAlertResult', ok: false, statusCode: 404, answer: 'no_service' } },
          },
        },
        // The list is read again: the answer is the destination's verification status now.
        listMock([destination({ verificationStatus: 'FAILED', verifiedAt: '2026-11-23T10:00:00Z' })]),
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Send Test Alert to Security team' }));
    expect(await screen.findByText('HTTP 404 · no_service')).toBeTruthy();
    expect(await within(screen.getByRole('table')).findByText('Test failed')).toBeTruthy();
  });
});

describe('choosing a destination type', () => {
  it('offers the types in a searchable grid, Torq hidden while its flag is off', async () => {
    const user = userEvent.setup();
    renderWithApi(<NewDestinationPage />, {
      permissions: ['DestinationModify'],
      mocks: [listMock([])],
      at: '/configure/destinations/new/',
    });
    const grid = await screen.findByRole('list', { name: 'Destination types' });
    expect(within(grid).getAllByRole('listitem')).toHaveLength(20);
    expect(within(grid).queryByRole('listitem', { name: 'Torq' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Search destinations' }), 'paging');
    expect(
      within(grid)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Opsgenie', 'PagerDuty']);
  });

  it('opens the type’s form with ?type= and checks as the user types', async () => {
    const user = userEvent.setup();
    renderWithApi(<NewDestinationPage />, {
      permissions: ['DestinationModify'],
      mocks: [listMock([destination()])],
      at: '/configure/destinations/new/?type=slack',
    });
    const form = await screen.findByRole('form', { name: 'Slack destination' });
    await new Promise((r) => setTimeout(r, 50));
    const name = within(form).getByRole('textbox', { name: /^Display Name/ });
    await user.type(name, 'security team');
    expect(await screen.findByText(MESSAGES.displayNameTaken)).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'team_alerts');
    expect(await screen.findByText('Can only include alphanumeric characters, dashes and spaces')).toBeTruthy();
    await user.click(form.querySelector('input[name="config.webhookURL"]')!);
    await user.paste('http://hooks.slack.com/services/x');
    await user.tab();
    expect(await screen.findByText(MESSAGES.webhookUrl)).toBeTruthy();
    expect(MESSAGES.webhookUrl.startsWith('Must be a valid webhook URL')).toBe(true);
    expect((screen.getByRole('button', { name: 'Add Destination' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

/** The edit page's form, wired to the API as the page wires it. */
function Editing({ saved, readOnly = false }: { readonly saved: DestinationFieldsFragment; readonly readOnly?: boolean }) {
  const editor = useDestinationEditor({ destination: saved, onSaved: () => undefined });
  return (
    <DestinationForm
      type="slack"
      destination={saved}
      context={editor.context}
      readOnly={readOnly}
      onSubmit={editor.save}
      onTest={editor.test}
      onCancel={() => undefined}
    />
  );
}

describe('editing a destination', () => {
  it('shows the secret masked and sends the placeholder back when it is left alone, so the server keeps it', async () => {
    const user = userEvent.setup();
    const saved = destination();
    const expectedInput = {
      outputType: 'slack',
      displayName: 'Security team 2',
      defaultForSeverity: ['CRITICAL', 'HIGH'],
      alertTypes: ['ALERT'],
      logTypes: [],
      outputConfig: JSON.stringify({ webhookURL: MASKED_SECRET }),
    };
    let updated = false;
    renderWithApi(<Editing saved={saved} />, {
      permissions: ['DestinationModify'],
      mocks: [
        listMock([saved]),
        {
          request: { query: UPDATE_DESTINATION, variables: { id: saved.id, input: expectedInput, revision: 3 } },
          result: () => {
            updated = true;
            return { data: { updateDestination: destination({ displayName: 'Security team 2', revision: 4 }) } };
          },
        },
      ],
    });
    const secret = (await screen.findByRole('form')).querySelector('input[name="config.webhookURL"]') as HTMLInputElement;
    expect(secret.value).toBe(MASKED_SECRET);
    expect(secret.type).toBe('password');
    await user.click(secret);
    expect(secret.value).toBe('');
    await user.tab();
    expect(secret.value).toBe(MASKED_SECRET);
    await user.type(screen.getByRole('textbox', { name: /^Display Name/ }), ' 2');
    await user.click(screen.getByRole('button', { name: 'Update Destination' }));
    await waitFor(() => expect(updated).toBe(true));
  });

  it('sends a test alert with the form’s values and shows the answer', async () => {
    const user = userEvent.setup();
    const saved = destination();
    const input = destinationInput(initialValues('slack', saved));
    renderWithApi(<Editing saved={saved} />, {
      permissions: ['DestinationModify'],
      mocks: [
        listMock([saved]),
        {
          request: { query: SEND_TEST_ALERT, variables: { input: { id: saved.id, destination: input } } },
          result: { data: { sendTestAlert: { __typename: 'TestAlertResult', ok: true, statusCode: 200, answer: 'ok' } } },
        },
      ],
    });
    await user.click(await screen.findByRole('button', { name: 'Send Test Alert' }));
    expect(await screen.findByText('Test alert delivered (HTTP 200)')).toBeTruthy();
  });

  it('is read-only for a DestinationRead user', async () => {
    const saved = destination();
    renderWithApi(<Editing saved={saved} readOnly />, { permissions: ['DestinationRead'], mocks: [listMock([saved])] });
    const name = (await screen.findByRole('textbox', { name: /^Display Name/ })) as HTMLInputElement;
    expect(name.readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Update Destination' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send Test Alert' })).toBeNull();
  });
});

describe('every type’s form', () => {
  it.each(DESTINATION_TYPES)('%s shows each of its fields, secrets as password inputs', async (type) => {
    renderWithApi(
      <DestinationForm
        type={type}
        context={{ torqEnabled: true, takenNames: new Set() }}
        onSubmit={async () => undefined}
        onTest={async () => undefined}
        onCancel={() => undefined}
      />,
      { permissions: ['DestinationModify'] },
    );
    const form = await screen.findByRole('form', { name: `${DESTINATION_TYPE_INFO[type].title} destination` });
    for (const field of DESTINATION_TYPE_INFO[type].fields) {
      if (field.kind === 'headers') {
        expect(within(form).getByText(field.label)).toBeTruthy();
        continue;
      }
      const input =
        form.querySelector(`[name="config.${field.name}"]`) ?? within(form).getByLabelText(new RegExp(`^${field.label}`));
      expect(input, field.name).toBeTruthy();
      if (field.kind === 'secret' && field.format !== 'gcpCredentials') expect((input as HTMLInputElement).type).toBe('password');
    }
  });
});

describe('DestinationIcons', () => {
  const renderIcons = (count: number) =>
    render(
      <MantineProvider theme={theme} env="test">
        <DestinationIcons
          destinations={Array.from({ length: count }, (_, i) => ({ id: `d${i}`, outputType: 'slack', displayName: `Team ${i}` }))}
        />
      </MantineProvider>,
    );

  it('shows at most 3 icons, each named by its destination, and counts the rest', () => {
    renderIcons(5);
    expect(screen.getAllByRole('img').map((img) => img.getAttribute('aria-label'))).toEqual(['Team 0', 'Team 1', 'Team 2']);
    expect(screen.getByText('+2')).toBeTruthy();
  });

  it('says when there are none', () => {
    renderIcons(0);
    expect(screen.getByText(NO_DESTINATIONS)).toBeTruthy();
    expect(NO_DESTINATIONS).toBe('No destinations configured');
  });
});
