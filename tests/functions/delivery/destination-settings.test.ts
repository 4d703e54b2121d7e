// The specification's destination settings beyond sending (docs/destinations.md, "Jira and Asana sync,
// severity-based config, and settings not in use yet"): the Slack bot's timeLocation shows the alert's time in that zone (and is validated), Asana's
// task status request, Jira's status map with its defaults, GCP's credentialsType, and the settings Caracal keeps
// without acting on them, each saying so in its help text (secrets among them stay secret, so masked).
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../core/alerts/model';
import {
  DESTINATION_TYPE_INFO,
  MESSAGES,
  secretFieldNames,
  validateDestination,
  type DestinationType,
} from '../../../core/destinations';
import { deliveryAlertOf } from '../../../functions/lib/delivery/alert';
import { buildSlackBot } from '../../../functions/lib/delivery/payloads/chat';
import { SERVICE_ENDPOINTS, zonedTime } from '../../../functions/lib/delivery/payloads/common';
import { buildAsanaStatus, jiraStatusFor } from '../../../functions/lib/delivery/payloads/trackers';

const alert = deliveryAlertOf(
  {
    id: '0123456789abcdef0123456789abcdef',
    type: 'ALERT',
    title: 'Root login',
    severity: 'HIGH',
    status: 'OPEN',
    detectionId: 'AWS.Console.RootLogin',
    systemKind: null,
    sourceId: null,
    description: null,
    logTypes: ['AWS.CloudTrail'],
    eventCount: 1,
    firstEventAt: '2026-03-01T10:00:00.000Z',
    lastEventAt: '2026-03-01T10:00:00.000Z',
    createdAt: '2026-03-01T10:00:01.000Z',
    updatedAt: '2026-03-01T10:00:01.000Z',
    dedupString: 'root',
    alertContext: null,
    runbook: null,
    reference: null,
    signalsTable: null,
    assigneeId: null,
    revision: 0,
  } as Alert,
  { appUrl: 'https://caracal.example.com', detectionName: 'Root login', events: [], change: 'CREATED' },
);
const context = { endpoint: (s: keyof typeof SERVICE_ENDPOINTS) => SERVICE_ENDPOINTS[s], now: new Date() };
const fieldsText = (body: string | undefined) => JSON.stringify((JSON.parse(body ?? '{}') as { blocks: unknown[] }).blocks[1]);
const field = (type: DestinationType, name: string) => DESTINATION_TYPE_INFO[type].fields.find((f) => f.name === name)!;

describe('the Slack bot', () => {
  it("shows the alert's time in its timeLocation, in UTC without one", () => {
    expect(zonedTime('2026-03-01T10:00:01.000Z', 'Europe/Paris')).toBe('2026-03-01 11:00:01 GMT+1');
    expect(zonedTime('2026-07-01T10:00:01.000Z', 'America/New_York')).toBe('2026-07-01 06:00:01 EDT');
    const paris = buildSlackBot({ botToken: 'xoxb-1', channel: '#sec', timeLocation: 'Europe/Paris' }, alert, context);
    expect(fieldsText(paris.body)).toContain('*Created*\\n2026-03-01 11:00:01 GMT+1');
    const utc = buildSlackBot({ botToken: 'xoxb-1', channel: '#sec' }, alert, context);
    expect(fieldsText(utc.body)).toContain('*Created*\\n2026-03-01T10:00:01.000Z');
  });

  it('takes an IANA time zone name and refuses anything else', () => {
    const input = (timeLocation: string) => ({
      outputType: 'slackbot',
      displayName: 'Bot',
      defaultForSeverity: [],
      alertTypes: ['ALERT'],
      logTypes: [],
      config: { botToken: 'xoxb-1', channel: '#sec', timeLocation },
    });
    expect(validateDestination(input('Europe/Paris'), { torqEnabled: false })).toEqual([]);
    expect(validateDestination(input('UTC'), { torqEnabled: false })).toEqual([]);
    for (const bad of ['Mars/Olympus', 'UTC; DROP', '../etc'])
      expect(validateDestination(input(bad), { torqEnabled: false })).toEqual([
        { path: 'config.timeLocation', message: MESSAGES.timeZone },
      ]);
  });

  it('keeps clientId, clientSecret and signingSecret, the secrets masked, and says they do nothing yet', () => {
    expect(secretFieldNames('slackbot')).toEqual(['botToken', 'clientSecret', 'signingSecret']);
    for (const name of ['clientId', 'clientSecret', 'signingSecret']) {
      expect(field('slackbot', name).required).toBe(false);
      expect(field('slackbot', name).description).toContain('Not available yet');
    }
    expect(field('slackbot', 'timeLocation').description).not.toContain('Not available yet');
  });
});

describe('Asana status sync', () => {
  it('completes the task while the alert is resolved or closed, reopens it otherwise', () => {
    const request = (status: 'OPEN' | 'TRIAGED' | 'RESOLVED' | 'CLOSED') =>
      buildAsanaStatus({ personalAccessToken: 'pat' }, { alertId: alert.id, status, reference: '1200' }, context);
    expect(request('RESOLVED')).toMatchObject({ url: 'https://app.asana.com/api/1.0/tasks/1200', method: 'PUT' });
    expect(request('RESOLVED').headers).toMatchObject({ authorization: 'Bearer pat' });
    expect(JSON.parse(request('CLOSED').body!)).toEqual({ data: { completed: true } });
    expect(JSON.parse(request('OPEN').body!)).toEqual({ data: { completed: false } });
    expect(JSON.parse(request('TRIAGED').body!)).toEqual({ data: { completed: false } });
    expect(() =>
      buildAsanaStatus({ personalAccessToken: 'pat' }, { alertId: alert.id, status: 'OPEN', reference: '../x' }, context),
    ).toThrow('Not an Asana task gid');
    expect(field('asana', 'syncAlertStatus')).toMatchObject({ kind: 'boolean', defaultValue: false });
  });
});

describe('Jira status sync settings', () => {
  it('maps each alert status to a Jira status, with defaults', () => {
    expect(jiraStatusFor({}, 'OPEN')).toBe('To Do');
    expect(jiraStatusFor({}, 'TRIAGED')).toBe('In Progress');
    expect(jiraStatusFor({}, 'RESOLVED')).toBe('Done');
    expect(jiraStatusFor({ statusMapClosed: ' Won’t Do ' }, 'CLOSED')).toBe('Won’t Do');
  });

  it('offers the sync and pull flags on both Jira types, those not available saying so', () => {
    for (const type of ['jira', 'jiradatacenter'] as const) {
      expect(field(type, 'syncStatus').description).not.toContain('Not available yet');
      expect(field(type, 'syncAssignee').description).not.toContain('Not available yet');
      expect(field(type, 'syncAssignee').description).toContain("assignee's email");
      expect(field(type, 'syncComments').description).not.toContain('Not available yet');
      expect(field(type, 'syncComments').description).toContain("author's name");
      for (const name of ['pullStatus', 'pullAssignee', 'pullComments'])
        expect(field(type, name)).toMatchObject({ kind: 'boolean', description: expect.stringContaining('Not available yet') });
    }
  });
});

describe('GCP Pub/Sub credentialsType', () => {
  it('offers the service account key, the only kind supported, and says so', () => {
    expect(field('gcppubsub', 'credentialsType')).toMatchObject({
      kind: 'select',
      options: [{ value: 'serviceAccountKey', label: 'Service account key (JSON)' }],
      defaultValue: 'serviceAccountKey',
      description: expect.stringContaining('workload identity federation is not'),
    });
  });
});
