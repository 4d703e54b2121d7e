import { describe, expect, it } from 'vitest';
import {
  DESTINATION_TYPES,
  DESTINATION_TYPE_INFO,
  MASKED_SECRET,
  MESSAGES,
  availableDestinationTypes,
  configProblems,
  isWebhookUrl,
  namesRefusedAddress,
  secretFieldNames,
  validateDestination,
  type DestinationType,
} from '../../../core/destinations';
import { ipv4HostBytes, refusedAddress, refusedHost } from '../../../core/net/addresses';

const KEY = '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n';

/** A valid config of every type. */
const VALID: Record<DestinationType, Record<string, unknown>> = {
  asana: { personalAccessToken: '1/123:abc', projectGids: ['1200000000000001'] },
  sns: { topicArn: 'arn:aws:sns:us-east-1:123456789012:alerts' },
  sqs: { queueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/alerts' },
  blinkops: { webhookURL: 'https://app.blinkops.com/api/v1/webhook/abc' },
  customwebhook: { webhookURL: 'https://hooks.example.com/x', customHeaders: [{ name: 'X-Token', value: 's3cret' }] },
  discord: { webhookURL: 'https://discord.com/api/webhooks/1/abc' },
  gcppubsub: {
    projectId: 'my-project-1',
    topicId: 'alerts',
    credentials: JSON.stringify({ client_email: 'a@p.iam.gserviceaccount.com', private_key: KEY }),
  },
  github: { repoName: 'acme/security', token: 'ghp_abc' },
  incidentio: { webhookURL: 'https://api.incident.io/v2/alert_events/http/abc', token: 'tok' },
  jira: { orgDomain: 'https://acme.atlassian.net', projectKey: 'SEC', userName: 'a@acme.io', apiKey: 'k', issueType: 'Task' },
  jiradatacenter: { orgDomain: 'https://jira.acme.io', projectKey: 'SEC', apiKey: 'k', issueType: 'Bug' },
  mindflow: { webhookURL: 'https://api.mindflow.io/hook/abc' },
  msteams: { webhookURL: 'https://acme.webhook.office.com/webhookb2/abc' },
  opsgenie: { apiKey: 'key', serviceRegion: 'EU' },
  pagerduty: { integrationKey: '0123456789abcdef0123456789ABCDEF' },
  rapid7: { webhookURL: 'https://us.api.insight.rapid7.com/connect/v1/workflows/abc/events/execute' },
  slackbot: { botToken: 'xoxb-1', channel: '#security' },
  slack: { webhookURL: 'https://hooks.slack.com/services/T/B/x' },
  splunk: { webhookURL: 'https://splunk.acme.io:8088/services/collector/event', token: 'hec' },
  tines: { webhookURL: 'https://acme.tines.com/webhook/abc/def' },
  torq: { webhookURL: 'https://hooks.torq.io/v1/webhooks/abc' },
};

const input = (outputType: string, config: unknown, overrides: Record<string, unknown> = {}) => ({
  outputType,
  displayName: 'Security team',
  defaultForSeverity: ['CRITICAL', 'HIGH'],
  alertTypes: ['ALERT'],
  logTypes: [],
  config,
  ...overrides,
});

describe('the destination catalogue', () => {
  it('has the 21 types of the specification, Torq only behind its flag', () => {
    expect(DESTINATION_TYPES).toHaveLength(21);
    expect(availableDestinationTypes(false)).not.toContain('torq');
    expect(availableDestinationTypes(true)).toHaveLength(21);
    expect(DESTINATION_TYPE_INFO.jira.title).toBe('Jira Cloud');
  });

  it('marks tokens, keys and webhook URLs secret', () => {
    expect(secretFieldNames('pagerduty')).toEqual(['integrationKey']);
    expect(secretFieldNames('slack')).toEqual(['webhookURL']);
    expect(secretFieldNames('jira')).toEqual(['apiKey']);
    expect(secretFieldNames('customwebhook')).toEqual(['webhookURL', 'customHeaders']);
    expect(secretFieldNames('sns')).toEqual([]);
  });
});

describe('destination validation', () => {
  it.each(DESTINATION_TYPES)('accepts a valid %s destination', (type) => {
    expect(validateDestination(input(type, VALID[type]), { torqEnabled: true })).toEqual([]);
  });

  it.each(DESTINATION_TYPES)('requires every required field of %s', (type) => {
    const required = DESTINATION_TYPE_INFO[type].fields.filter((field) => field.required);
    expect(required.length).toBeGreaterThan(0);
    expect(configProblems(type, {})).toEqual(
      required.map((field) => ({ path: `config.${field.name}`, message: MESSAGES.required })),
    );
  });

  it('refuses Torq while its flag is off, and an unknown type', () => {
    expect(validateDestination(input('torq', VALID.torq), { torqEnabled: false })).toContainEqual({
      path: 'outputType',
      message: MESSAGES.unknownType,
    });
    expect(validateDestination(input('fax', {}), { torqEnabled: true })).toEqual([
      { path: 'outputType', message: MESSAGES.unknownType },
    ]);
  });

  it('applies the name rule of the specification to displayName', () => {
    const check = (displayName: unknown) =>
      validateDestination(input('slack', VALID.slack, { displayName }), { torqEnabled: false }).map((p) => p.message);
    expect(check('')).toEqual(['This field is required']);
    expect(check('Team_alerts!')).toEqual(['Can only include alphanumeric characters, dashes and spaces']);
    expect(check('x'.repeat(37))).toEqual(['Must be at most 36 characters']);
    expect(check('Security - team 2')).toEqual([]);
  });

  it('checks severities, alert types and log types', () => {
    const problems = validateDestination(
      input('slack', VALID.slack, { defaultForSeverity: ['HIGH', 'URGENT'], alertTypes: [], logTypes: ['A.B', 'A.B'] }),
      { torqEnabled: false },
    );
    expect(problems).toEqual([
      { path: 'defaultForSeverity', message: MESSAGES.unknownSeverity },
      { path: 'alertTypes', message: MESSAGES.required },
      { path: 'logTypes', message: MESSAGES.noDuplicates },
    ]);
  });

  it('takes https webhook URLs, and http only to a loopback host', () => {
    expect(MESSAGES.webhookUrl).toMatch(/^Must be a valid webhook URL/);
    for (const url of ['https://hooks.slack.com/x', 'http://127.0.0.1:8080/hook', 'http://localhost/x', 'http://[::1]:3000/']) {
      expect(isWebhookUrl(url)).toBe(true);
    }
    for (const url of [
      'http://hooks.slack.com/x',
      'ftp://a.b/',
      'https://user:pw@a.b/',
      'not a url',
      'javascript:alert(1)',
      'http://169.254.169.254/',
    ]) {
      expect(isWebhookUrl(url)).toBe(false);
    }
    expect(configProblems('slack', { webhookURL: 'http://hooks.slack.com/x' })).toEqual([
      { path: 'config.webhookURL', message: MESSAGES.webhookUrl },
    ]);
  });

  it('refuses URLs naming link-local and cloud metadata addresses, in every encoding, where the outbound client would', () => {
    expect(MESSAGES.refusedAddress).toMatch(/^Must not point to a link-local, cloud metadata/);
    const refused = [
      'https://169.254.169.254/latest/meta-data/',
      'https://169.254.170.2/v2/credentials',
      'https://2852039166/',
      'https://0xa9fea9fe/',
      'https://0251.0376.0251.0376/',
      'https://0xa9.0xfe.0xa9.0xfe/',
      'https://0xA9.254.0251.254/',
      'https://169.254.43518/',
      'https://169.16689662/',
      'https://169.254.169.254./',
      'https://[::ffff:169.254.169.254]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[0:0:0:0:0:ffff:a9fe:a9fe]/',
      'https://[::169.254.169.254]/',
      'https://[64:ff9b::a9fe:a9fe]/',
      'https://[fe80::1]/',
      'https://[FE80::abcd:1]:8443/',
      'https://[febf::1]/',
      'https://[fd00:ec2::254]/',
      'https://100.100.100.200/',
      'https://0.0.0.0/',
      'https://224.0.0.1/',
      'https://[::]/',
    ];
    for (const url of refused) {
      expect(namesRefusedAddress(url), url).toBe(true);
      expect(configProblems('customwebhook', { webhookURL: url }), url).toEqual([
        { path: 'config.webhookURL', message: MESSAGES.refusedAddress },
      ]);
    }
    // Every field a destination sends to: webhook URLs, Jira's site URL, an SQS queue URL over http.
    expect(configProblems('jira', { ...VALID.jira, orgDomain: 'https://[::ffff:a9fe:a9fe]' })).toEqual([
      { path: 'config.orgDomain', message: MESSAGES.refusedAddress },
    ]);
    expect(configProblems('slack', { webhookURL: 'https://2852039166/services/x' })[0].message).toBe(MESSAGES.refusedAddress);
    // Names, public addresses and loopback (a deployment may allow private networks; delivery decides) pass.
    for (const url of [
      'https://hooks.slack.com/x',
      'https://169.254.169.254.example.com/',
      'https://8.8.8.8/',
      'https://[2001:4860:4860::8888]/',
      'https://[::ffff:8.8.8.8]/',
      'https://10.0.0.8/',
      'http://127.0.0.1:8080/hook',
      'http://[::1]:3000/',
      'https://169.253.255.255/',
      'https://[fec0::1]/',
    ])
      expect(namesRefusedAddress(url), url).toBe(false);
    expect(configProblems('customwebhook', { webhookURL: 'https://10.0.0.8/hook' })).toEqual([]);
  });

  it('judges a host with the outbound client’s rule, reading IPv4 hosts as URL parsers do', () => {
    for (const host of ['169.254.169.254', '[::ffff:a9fe:a9fe]', '2852039166', '0251.0376.0251.0376', '0xa9fea9fe'])
      expect(refusedHost(host), host).toBe(refusedAddress('169.254.169.254'));
    expect(refusedHost('[fe80::1%eth0]')).toBe('a link-local address');
    expect(ipv4HostBytes('2852039166')).toEqual([169, 254, 169, 254]);
    expect(ipv4HostBytes('169.254.43518')).toEqual([169, 254, 169, 254]);
    expect(ipv4HostBytes('0x')).toEqual([0, 0, 0, 0]);
    for (const host of ['example.com', '1.2.3.4.5', '09.1.1.1', '4294967296', '1.256.1.1', '', '1..1'])
      expect(ipv4HostBytes(host), host).toBeNull();
    for (const host of ['example.com', '8.8.8.8', '127.0.0.1', 'not an address']) expect(refusedHost(host), host).toBeNull();
  });

  it('checks each type’s formats with a message saying what is expected', () => {
    expect(configProblems('pagerduty', { integrationKey: 'abc' })).toEqual([
      { path: 'config.integrationKey', message: MESSAGES.hex32 },
    ]);
    expect(configProblems('sns', { topicArn: 'arn:aws:sqs:us-east-1:123456789012:x' })[0].message).toBe(MESSAGES.snsTopicArn);
    expect(configProblems('sqs', { queueUrl: 'https://example.com/123456789012/q' })[0].message).toBe(MESSAGES.sqsQueueUrl);
    expect(configProblems('sqs', { queueUrl: 'http://127.0.0.1:4566/000000000000/alerts' })).toEqual([]);
    expect(configProblems('sqs', { queueUrl: 'http://sqs.us-east-1.127.0.0.1:4566/000000000000/alerts' })).toEqual([]);
    expect(configProblems('sqs', { queueUrl: 'http://sqs.us-east-1.example.com/000000000000/alerts' })[0].message).toBe(
      MESSAGES.sqsQueueUrl,
    );
    expect(configProblems('sqs', { queueUrl: 'https://sqs.us-east-1.amazonaws.com/12/alerts' })[0].message).toBe(
      MESSAGES.sqsQueueUrl,
    );
    expect(configProblems('github', { repoName: 'no-slash', token: 't' })[0].message).toBe(MESSAGES.githubRepo);
    expect(configProblems('asana', { personalAccessToken: 't', projectGids: ['12', 'x1'] })[0].message).toBe(MESSAGES.digitsOnly);
    expect(configProblems('asana', { personalAccessToken: 't', projectGids: ['12', '12'] })[0].message).toBe(
      MESSAGES.noDuplicates,
    );
    expect(configProblems('opsgenie', { apiKey: 'k', serviceRegion: 'APAC' })[0].message).toBe(MESSAGES.unknownOption);
    expect(configProblems('gcppubsub', { ...VALID.gcppubsub, credentials: '{"a":1}' })[0].message).toBe(MESSAGES.gcpCredentials);
    expect(configProblems('gcppubsub', { ...VALID.gcppubsub, projectId: 'Bad' })[0].message).toBe(MESSAGES.gcpProjectId);
    expect(configProblems('jira', { ...VALID.jira, projectKey: 'sec' })[0].message).toBe(MESSAGES.jiraProjectKey);
    expect(configProblems('jira', { ...VALID.jira, userName: 'me' })[0].message).toBe(MESSAGES.email);
    expect(configProblems('jira', { ...VALID.jira, orgDomain: 'acme.atlassian.net' })[0].message).toBe(MESSAGES.siteUrl);
    expect(configProblems('slackbot', { botToken: 'x', channel: 'security team' })[0].message).toBe(MESSAGES.slackChannel);
    expect(configProblems('slack', { webhookURL: VALID.slack.webhookURL, extra: 1 })).toEqual([
      { path: 'config.extra', message: 'Unknown field' },
    ]);
  });

  it('checks custom headers one by one', () => {
    const problems = configProblems('customwebhook', {
      webhookURL: 'https://a.example/x',
      customHeaders: [
        { name: 'X-Token', value: 'a' },
        { name: 'x-token', value: 'b' },
        { name: 'Bad Name', value: '' },
      ],
    });
    expect(problems).toEqual([
      { path: 'config.customHeaders[1].name', message: MESSAGES.noDuplicates },
      { path: 'config.customHeaders[2].name', message: MESSAGES.headerName },
      { path: 'config.customHeaders[2].value', message: MESSAGES.required },
    ]);
  });

  it('takes the masked placeholder for a secret only when editing a saved destination', () => {
    const masked = { webhookURL: MASKED_SECRET };
    expect(configProblems('slack', masked, { maskedKeepsSaved: true })).toEqual([]);
    expect(configProblems('slack', masked)).toEqual([{ path: 'config.webhookURL', message: MESSAGES.maskedOnCreate }]);
    expect(MASKED_SECRET).toMatch(/^\*+$/);
  });
});
