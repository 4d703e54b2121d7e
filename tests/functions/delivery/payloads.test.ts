// Each destination type's request, checked against the service's public API: the endpoint, the auth header,
// the keys the API requires (and its length limits), the dedup keys that keep a re-delivery from paging twice,
// untrusted text never read as markup, and which types take updates.
import { generateKeyPairSync } from 'node:crypto';
import { importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { DESTINATION_TYPES } from '../../../core/destinations/types';
import type { Alert } from '../../../functions/lib/alerts';
import { deliveryAlertOf, MAX_EVENTS, truncateEvent, type DeliveryAlert } from '../../../functions/lib/delivery/alert';
import { SENDERS, supportsUpdates } from '../../../functions/lib/delivery/payloads';
import { buildDiscord, buildSlackBot, buildSlackWebhook, buildTeams } from '../../../functions/lib/delivery/payloads/chat';
import {
  publishRequest,
  queueRegion,
  serviceAccountKey,
  snsPublish,
  tokenRequest,
} from '../../../functions/lib/delivery/payloads/cloud';
import { SERVICE_ENDPOINTS, type SendContext } from '../../../functions/lib/delivery/payloads/common';
import { buildOpsgenie, buildPagerDuty } from '../../../functions/lib/delivery/payloads/paging';
import { buildAsana, buildGitHub, buildJiraCloud, buildJiraDataCenter } from '../../../functions/lib/delivery/payloads/trackers';
import {
  alertBody,
  buildCustomWebhook,
  buildIncidentIo,
  buildPlainWebhook,
  buildRapid7,
  buildSplunk,
  buildTorq,
} from '../../../functions/lib/delivery/payloads/webhooks';

const STORED: Alert = {
  id: '0123456789abcdef0123456789abcdef',
  type: 'ALERT',
  title: 'Root console login <script>alert(1)</script> & more',
  severity: 'HIGH',
  status: 'OPEN',
  detectionId: 'AWS.Console.RootLogin',
  systemKind: null,
  sourceId: null,
  description: 'The root user signed in to the console.',
  logTypes: ['AWS.CloudTrail'],
  eventCount: 12,
  firstEventAt: '2026-03-01T10:00:00.000Z',
  lastEventAt: '2026-03-01T10:05:00.000Z',
  createdAt: '2026-03-01T10:00:01.000Z',
  updatedAt: '2026-03-01T10:05:01.000Z',
  dedupString: 'root',
  alertContext: { ip: '203.0.113.9' },
  runbook: 'Call the account owner.',
  reference: 'https://docs.example.com/root',
  signalsTable: 'panther_signals.aws_cloudtrail',
  assigneeId: null,
  revision: 1,
};

const events = Array.from({ length: 12 }, (_, i) => ({ n: i, eventName: 'ConsoleLogin', p_log_type: 'AWS.CloudTrail' }));
const alert: DeliveryAlert = deliveryAlertOf(STORED, {
  appUrl: 'https://caracal.example.com/',
  detectionName: 'Root console login',
  events,
  change: 'CREATED',
});
const context: Pick<SendContext, 'endpoint' | 'now'> = {
  endpoint: (service) => SERVICE_ENDPOINTS[service],
  now: new Date('2026-03-01T10:06:00Z'),
};
const json = (body: string | undefined) => JSON.parse(body ?? 'null');
const destination = (config: Record<string, unknown>) => ({ id: 'dest-1', outputType: 'x', displayName: 'Team', config });

describe('the alert every payload is built from', () => {
  it('links to the alert page under the app URL and keeps at most 10 events, each cut', () => {
    expect(alert.link).toBe('https://caracal.example.com/alerts-and-errors/0123456789abcdef0123456789abcdef/');
    expect(alert.events).toHaveLength(MAX_EVENTS);
    const huge = truncateEvent({ big: 'y'.repeat(10_000), small: 1 });
    expect(JSON.stringify(huge).length).toBeLessThan(4100);
    expect(huge).toMatchObject({ small: 1, big: expect.stringMatching(/… \(10000 characters\)$/) });
    const wide = truncateEvent(Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, 'v'.repeat(20)])));
    expect(wide).toMatchObject({ truncated: true, preview: expect.any(String) });
  });
});

describe('chat', () => {
  it('Slack webhook: Block Kit with a header, fields, a button to the alert, and escaped text', () => {
    const request = buildSlackWebhook({ webhookURL: 'https://hooks.slack.com/services/T/B/X' }, alert);
    expect(request.url).toBe('https://hooks.slack.com/services/T/B/X');
    const body = json(request.body);
    expect(body.text).toContain('High alert');
    expect(body.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(body.blocks[0].text.text.length).toBeLessThanOrEqual(150);
    const fields = body.blocks[1].fields as Array<{ text: string }>;
    expect(fields.length).toBeLessThanOrEqual(10);
    expect(fields.map((f) => f.text)).toContain('*Severity*\nHigh');
    const all = JSON.stringify(body.blocks.slice(1));
    expect(all).not.toContain('<script>');
    const actions = body.blocks.at(-1);
    expect(actions).toMatchObject({ type: 'actions', elements: [{ type: 'button', url: alert.link }] });
  });

  it('Slack bot: chat.postMessage to the channel with the bot token', () => {
    const request = buildSlackBot({ botToken: 'xoxb-1', channel: '#sec' }, alert, context);
    expect(request.url).toBe('https://slack.com/api/chat.postMessage');
    expect(request.headers).toMatchObject({ authorization: 'Bearer xoxb-1' });
    expect(json(request.body)).toMatchObject({ channel: '#sec', blocks: expect.any(Array), text: expect.any(String) });
  });

  it('Microsoft Teams: a message with one Adaptive Card and an Open URL action', () => {
    const body = json(buildTeams({ webhookURL: 'https://example.webhook.office.com/x' }, alert).body);
    expect(body.type).toBe('message');
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: { type: 'AdaptiveCard', version: '1.4', actions: [{ type: 'Action.OpenUrl', url: alert.link }] },
    });
  });

  it('Discord: one embed within its limits, mentions disabled, answered with the message (wait=true)', () => {
    const request = buildDiscord({ webhookURL: 'https://discord.com/api/webhooks/1/abc' }, alert);
    expect(request.url).toBe('https://discord.com/api/webhooks/1/abc?wait=true');
    const body = json(request.body);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = body.embeds;
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.url).toBe(alert.link);
    expect(embed.fields.length).toBeLessThanOrEqual(25);
    for (const field of embed.fields) expect(field.value.length).toBeLessThanOrEqual(1024);
  });
});

describe('on-call', () => {
  it('PagerDuty Events v2: a trigger whose dedup_key is the alert id, the same on every delivery', () => {
    const key = 'a'.repeat(32);
    const first = json(buildPagerDuty({ integrationKey: key }, alert, context).body);
    const again = json(
      buildPagerDuty({ integrationKey: key }, { ...alert, change: 'EVENTS_ADDED', eventCount: 20 }, context).body,
    );
    expect(buildPagerDuty({ integrationKey: key }, alert, context).url).toBe('https://events.pagerduty.com/v2/enqueue');
    expect(first).toMatchObject({
      routing_key: key,
      event_action: 'trigger',
      dedup_key: alert.id,
      payload: { summary: alert.title, source: 'Caracal', severity: 'error', timestamp: alert.createdAt },
      links: [{ href: alert.link }],
    });
    expect(again.dedup_key).toBe(first.dedup_key);
    expect(first.payload.custom_details.events).toHaveLength(10);
  });

  it('Opsgenie: an alert aliased by the alert id, to the US or EU host, with the GenieKey header', () => {
    const us = buildOpsgenie({ apiKey: 'k', serviceRegion: 'US' }, alert, context);
    const eu = buildOpsgenie({ apiKey: 'k', serviceRegion: 'EU' }, alert, context);
    expect(us.url).toBe('https://api.opsgenie.com/v2/alerts');
    expect(eu.url).toBe('https://api.eu.opsgenie.com/v2/alerts');
    expect(us.headers).toMatchObject({ authorization: 'GenieKey k' });
    const body = json(us.body);
    expect(body).toMatchObject({ alias: alert.id, priority: 'P2', source: 'Caracal' });
    expect(body.message.length).toBeLessThanOrEqual(130);
    for (const value of Object.values(body.details)) expect(typeof value).toBe('string');
  });
});

describe('issue trackers', () => {
  const jiraConfig = {
    orgDomain: 'https://acme.atlassian.net/',
    projectKey: 'SEC',
    userName: 'me@acme.com',
    apiKey: 'tok',
    issueType: 'Bug',
    labels: ['caracal', 'root login'],
  };

  it('Jira Cloud: REST v3 issue with an Atlassian Document description and basic auth', () => {
    const request = buildJiraCloud(jiraConfig, alert);
    expect(request.url).toBe('https://acme.atlassian.net/rest/api/3/issue');
    expect(request.headers!.authorization).toBe(`Basic ${Buffer.from('me@acme.com:tok').toString('base64')}`);
    const { fields } = json(request.body);
    expect(fields).toMatchObject({
      project: { key: 'SEC' },
      issuetype: { name: 'Bug' },
      priority: { name: 'High' },
      labels: ['caracal', 'root_login'],
      description: { type: 'doc', version: 1 },
    });
    expect(fields.summary.length).toBeLessThanOrEqual(255);
  });

  it('Jira Data Center: REST v2 issue with a text description and the token as a bearer', () => {
    const request = buildJiraDataCenter({ ...jiraConfig, userName: '', assigneeId: 'jdoe', priority: 'Highest' }, alert);
    expect(request.url).toBe('https://acme.atlassian.net/rest/api/2/issue');
    expect(request.headers!.authorization).toBe('Bearer tok');
    const { fields } = json(request.body);
    expect(typeof fields.description).toBe('string');
    expect(fields).toMatchObject({ assignee: { name: 'jdoe' }, priority: { name: 'Highest' } });
  });

  it('Asana: a task in the configured projects', () => {
    const request = buildAsana({ personalAccessToken: 'pat', projectGids: ['111', '222'] }, alert, context);
    expect(request.url).toBe('https://app.asana.com/api/1.0/tasks');
    expect(request.headers!.authorization).toBe('Bearer pat');
    expect(json(request.body).data).toMatchObject({ projects: ['111', '222'], name: expect.stringContaining('Root console') });
  });

  it('GitHub: an issue in the repository, the alert as escaped Markdown', () => {
    const request = buildGitHub({ repoName: 'acme/security', token: 'ghp' }, alert, context);
    expect(request.url).toBe('https://api.github.com/repos/acme/security/issues');
    expect(request.headers).toMatchObject({ authorization: 'Bearer ghp', accept: 'application/vnd.github+json' });
    const body = json(request.body);
    expect(body.title).toContain('Root console login');
    expect(body.body).toContain(`[Open in Caracal](${alert.link})`);
    expect(body.body).not.toContain('<script>');
  });
});

describe('the webhook family', () => {
  it('custom webhook: the documented body and the custom headers, reserved ones left out', () => {
    const request = buildCustomWebhook(
      destination({
        webhookURL: 'https://hooks.example.com/caracal',
        customHeaders: [
          { name: 'X-Api-Key', value: 'secret' },
          { name: 'Host', value: 'evil' },
          { name: 'Bad Header', value: 'x' },
        ],
      }),
      alert,
      context.now,
    );
    expect(request.headers).toEqual({ 'content-type': 'application/json', 'X-Api-Key': 'secret' });
    const body = json(request.body);
    expect(Object.keys(body).sort()).toEqual(
      [
        'version',
        'id',
        'change',
        'type',
        'systemKind',
        'title',
        'severity',
        'link',
        'description',
        'detection',
        'runbook',
        'reference',
        'context',
        'logTypes',
        'createdAt',
        'updatedAt',
        'firstEventAt',
        'lastEventAt',
        'eventCount',
        'events',
        'destination',
        'sentAt',
      ].sort(),
    );
    expect(body).toMatchObject({
      version: 1,
      id: alert.id,
      change: 'CREATED',
      detection: { id: 'AWS.Console.RootLogin', name: 'Root console login' },
      destination: { id: 'dest-1', name: 'Team' },
      sentAt: '2026-03-01T10:06:00.000Z',
    });
  });

  it('Tines, Blink and Mindflow receive the same body; Torq and Rapid7 add their token header when set', () => {
    const config = { webhookURL: 'https://x.example.com/h' };
    expect(json(buildPlainWebhook(destination(config), alert, context.now).body)).toEqual(
      alertBody(destination(config), alert, context.now),
    );
    expect(buildTorq(destination({ ...config, token: 't' }), alert, context.now).headers).toMatchObject({
      authorization: 'Bearer t',
    });
    expect(buildTorq(destination(config), alert, context.now).headers).not.toHaveProperty('authorization');
    expect(buildRapid7(destination({ ...config, apiKey: 'k' }), alert, context.now).headers).toMatchObject({ 'x-api-key': 'k' });
  });

  it('Splunk: an HTTP Event Collector event with the Splunk token', () => {
    const request = buildSplunk(
      destination({ webhookURL: 'https://splunk.example.com:8088/services/collector/event', token: 'hec' }),
      alert,
      context.now,
    );
    expect(request.headers).toMatchObject({ authorization: 'Splunk hec' });
    const body = json(request.body);
    expect(body).toMatchObject({
      sourcetype: 'caracal:alert',
      time: Date.parse(alert.createdAt) / 1000,
      event: { id: alert.id },
    });
  });

  it('incident.io: a firing alert event deduplicated on the alert id', () => {
    const request = buildIncidentIo(
      destination({ webhookURL: 'https://api.incident.io/v2/alert_events/http/01H', token: 'tok' }),
      alert,
      context.now,
    );
    expect(request.headers).toMatchObject({ authorization: 'Bearer tok' });
    expect(json(request.body)).toMatchObject({
      title: alert.title,
      status: 'firing',
      deduplication_key: alert.id,
      source_url: alert.link,
    });
  });
});

describe('cloud messaging', () => {
  it('SNS: Publish to the topic in its region, an ASCII one-line subject and the alert body', () => {
    const { region, input } = snsPublish(
      { topicArn: 'arn:aws:sns:eu-west-1:123456789012:alerts' },
      destination({}),
      { ...alert, title: 'Ünïcode\nline' },
      context.now,
    );
    expect(region).toBe('eu-west-1');
    expect(input.Subject).toBe('Alert: ?n?code line');
    expect(JSON.parse(input.Message).id).toBe(alert.id);
    expect(() => snsPublish({ topicArn: 'not-an-arn' }, destination({}), alert, context.now)).toThrow('not an SNS topic ARN');
  });

  it('SQS: the region of the queue URL', () => {
    expect(queueRegion('https://sqs.us-east-2.amazonaws.com/123456789012/q')).toBe('us-east-2');
    expect(queueRegion('https://eu-west-1.queue.amazonaws.com/123456789012/q')).toBe('eu-west-1');
    expect(queueRegion('http://127.0.0.1:4566/000000000000/q')).toBeUndefined();
    expect(queueRegion('http://sqs.us-east-1.127.0.0.1:4566/000000000000/q')).toBeUndefined();
    expect(() => queueRegion('queue')).toThrow('not a URL');
  });

  it('GCP Pub/Sub: a signed JWT-bearer token request to the key token_uri, then a publish with the alert as base64 data', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const credentials = JSON.stringify({
      client_email: 'caracal@project.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    const key = serviceAccountKey({ credentials });
    const token = await tokenRequest(key, context.now);
    expect(token.url).toBe('https://oauth2.googleapis.com/token');
    const form = new URLSearchParams(token.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const verified = await jwtVerify(
      form.get('assertion')!,
      await importSPKI(publicKey.export({ type: 'spki', format: 'pem' }) as string, 'RS256'),
      {
        currentDate: context.now,
      },
    );
    expect(verified.payload).toMatchObject({
      iss: 'caracal@project.iam.gserviceaccount.com',
      aud: 'https://oauth2.googleapis.com/token',
      scope: 'https://www.googleapis.com/auth/pubsub',
    });
    const publish = publishRequest({ projectId: 'proj', topicId: 'alerts' }, destination({}), alert, 'ya29', context);
    expect(publish.url).toBe('https://pubsub.googleapis.com/v1/projects/proj/topics/alerts:publish');
    expect(publish.headers).toMatchObject({ authorization: 'Bearer ya29' });
    const [message] = json(publish.body).messages;
    expect(JSON.parse(Buffer.from(message.data, 'base64').toString()).id).toBe(alert.id);
    expect(message.attributes).toMatchObject({ alertId: alert.id, severity: 'HIGH' });
    expect(() => serviceAccountKey({ credentials: '{"client_email": 1}' })).toThrow('lack client_email or private_key');
  });
});

describe('every type', () => {
  it('has a sender', () => {
    expect(Object.keys(SENDERS).sort()).toEqual([...DESTINATION_TYPES].sort());
  });

  it('takes updates where the service deduplicates or the receiver reads changes, and not where it would duplicate', () => {
    const updating = DESTINATION_TYPES.filter((t) => supportsUpdates(t)).sort();
    expect(updating).toEqual(
      [
        'blinkops',
        'customwebhook',
        'gcppubsub',
        'incidentio',
        'mindflow',
        'opsgenie',
        'pagerduty',
        'rapid7',
        'sns',
        'splunk',
        'sqs',
        'tines',
        'torq',
      ].sort(),
    );
    expect(supportsUpdates('unknown')).toBe(false);
  });
});
