// Jira severity-based config (docs/destinations.md): with useSeverityBasedConfig on, an alert's issue is opened
// in the project, with the issue type and assignee, of its severity's row (an empty cell: the main field), sent to
// a Jira played by a receiver on 127.0.0.1; with it off the rows are ignored. The rows' rules (core validation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertSeverity } from '../../../core/alerts/model';
import { fieldProblems, validateDestination } from '../../../core/destinations';
import { DESTINATION_TYPE_INFO } from '../../../core/destinations/types';
import { sendToDestination } from '../../../functions/lib/delivery';
import { fakeTrackers, reply, sampleDeliveryAlert, startReceiver, type Receiver } from './harness';

let receiver: Receiver;
const fake = fakeTrackers(() => receiver.base);
/** The issue opened last. */
const lastIssue = () => [...fake.issues.values()].at(-1)!;

beforeAll(async () => {
  receiver = await startReceiver((request, res) => fake.handle(request, res) || reply(res, 404, {}));
});

afterAll(() => receiver.stop());

const alertOf = (severity: AlertSeverity) => sampleDeliveryAlert(severity);

const rows = [
  { severity: 'CRITICAL', projectKey: 'IR', issueType: 'Incident', assigneeId: 'acc-oncall' },
  { severity: 'HIGH', projectKey: 'SECOPS', issueType: '', assigneeId: '' },
  { severity: 'MEDIUM', projectKey: '', issueType: 'Bug', assigneeId: '' },
  { severity: 'LOW', projectKey: '', issueType: '', assigneeId: '' },
  { severity: 'INFO', projectKey: '', issueType: '', assigneeId: '' },
];
const jira = (outputType: string, useSeverityBasedConfig: boolean) => ({
  id: 'd1',
  outputType,
  displayName: 'Jira',
  config: {
    orgDomain: receiver.base,
    projectKey: 'SEC',
    userName: 'bot@example.com',
    apiKey: 'token',
    issueType: 'Task',
    assigneeId: 'acc-main',
    useSeverityBasedConfig,
    severityBasedConfig: rows,
  },
});
const local = { http: { allowPrivateNetworks: true, timeoutMs: 2000 } };

async function open(outputType: string, on: boolean, severity: AlertSeverity) {
  const outcome = await sendToDestination(jira(outputType, on), alertOf(severity), local);
  expect(outcome.ok).toBe(true);
  const fields = lastIssue().fields;
  return {
    project: (fields.project as { key: string }).key,
    type: (fields.issuetype as { name: string }).name,
    assignee: fields.assignee,
  };
}

describe('Jira severity-based config', () => {
  it("opens the issue with the severity's row, empty cells taking the main fields (Cloud)", async () => {
    expect(await open('jira', true, 'CRITICAL')).toEqual({
      project: 'IR',
      type: 'Incident',
      assignee: { accountId: 'acc-oncall' },
    });
    expect(await open('jira', true, 'HIGH')).toEqual({ project: 'SECOPS', type: 'Task', assignee: { accountId: 'acc-main' } });
    expect(await open('jira', true, 'MEDIUM')).toEqual({ project: 'SEC', type: 'Bug', assignee: { accountId: 'acc-main' } });
    expect(await open('jira', true, 'INFO')).toEqual({ project: 'SEC', type: 'Task', assignee: { accountId: 'acc-main' } });
    expect(lastIssue().openedOn).toBe('/rest/api/3/issue');
  });

  it('Data Center takes the row too (assignee by name); with the flag off the rows are ignored', async () => {
    expect(await open('jiradatacenter', true, 'CRITICAL')).toEqual({
      project: 'IR',
      type: 'Incident',
      assignee: { name: 'acc-oncall' },
    });
    expect(lastIssue().openedOn).toBe('/rest/api/2/issue');
    expect(await open('jira', false, 'CRITICAL')).toEqual({ project: 'SEC', type: 'Task', assignee: { accountId: 'acc-main' } });
  });

  it('offers the switch and the rows on both Jira types, and checks the rows', () => {
    for (const type of ['jira', 'jiradatacenter'] as const) {
      const fields = DESTINATION_TYPE_INFO[type].fields;
      expect(fields.find((f) => f.name === 'useSeverityBasedConfig')).toMatchObject({ kind: 'boolean' });
      expect(fields.find((f) => f.name === 'severityBasedConfig')).toMatchObject({ kind: 'severityConfig', required: false });
    }
    const field = DESTINATION_TYPE_INFO.jira.fields.find((f) => f.name === 'severityBasedConfig')!;
    expect(fieldProblems(field, rows)).toEqual([]);
    expect(fieldProblems(field, [{ severity: 'HIGH', projectKey: 'sec ops', issueType: '', assigneeId: '' }])).toEqual([
      { path: '[0].projectKey', message: 'Must be a project key: a capital letter then capitals, digits or underscores' },
    ]);
    expect(fieldProblems(field, [{ severity: 'URGENT', projectKey: 'SEC' }])[0].path).toBe('[0].severity');
    expect(fieldProblems(field, [rows[0], rows[0]])[0]).toMatchObject({ path: '[1].severity' });
    expect(fieldProblems(field, 'SEC')).toHaveLength(1);
    const problems = validateDestination(
      {
        outputType: 'jira',
        displayName: 'Jira',
        defaultForSeverity: ['HIGH'],
        alertTypes: ['SYSTEM_ERROR'],
        logTypes: [],
        config: { ...jira('jira', true).config, severityBasedConfig: [{ ...rows[0], issueType: 'a\u0000b' }] },
      },
      { torqEnabled: false },
    );
    expect(problems.map((p) => p.path)).toEqual(['config.severityBasedConfig[0].issueType']);
  });
});
