// Realistic demo events, one round at a time: AWS CloudTrail (written as an object into the demo S3 source),
// Okta System Log and GitHub audit events (posted to the demo HTTP source). Each round holds something for
// every demo detection: a console login without MFA, root account activity, a burst of failed Okta logins
// for one user (above the threshold rule's 5), a repository made public, and ordinary activity around them.
import { randomUUID } from 'node:crypto';

export type DemoEvent = Record<string, unknown>;

const ACCOUNT = '123456789012';
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin'];
const IPS = ['203.0.113.7', '198.51.100.23', '192.0.2.44', '203.0.113.90', '198.51.100.201'];
const AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

/** Picks deterministically from a list by a round number and an offset (rounds vary, tests stay stable). */
const pick = <T>(list: readonly T[], round: number, offset = 0): T => list[(round + offset) % list.length];

const iso = (at: Date, secondsBefore: number) =>
  new Date(at.getTime() - secondsBefore * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function cloudTrail(at: string, fields: DemoEvent): DemoEvent {
  return {
    eventVersion: '1.08',
    eventTime: at,
    awsRegion: 'us-east-1',
    eventID: randomUUID(),
    readOnly: false,
    eventType: 'AwsApiCall',
    managementEvent: true,
    recipientAccountId: ACCOUNT,
    eventCategory: 'Management',
    userAgent: AGENT,
    ...fields,
  };
}

const iamUser = (name: string) => ({
  type: 'IAMUser',
  principalId: `AIDA${name.toUpperCase().padEnd(17, 'X')}`,
  arn: `arn:aws:iam::${ACCOUNT}:user/${name}`,
  accountId: ACCOUNT,
  userName: name,
});

export function cloudTrailEvents(now: Date, round: number): DemoEvent[] {
  const user = pick(USERS, round);
  const events: DemoEvent[] = [
    cloudTrail(iso(now, 50), {
      eventSource: 'signin.amazonaws.com',
      eventName: 'ConsoleLogin',
      eventType: 'AwsConsoleSignIn',
      userIdentity: iamUser(user),
      sourceIPAddress: pick(IPS, round),
      responseElements: { ConsoleLogin: 'Success' },
      additionalEventData: { LoginTo: 'https://console.aws.amazon.com/console/home', MobileVersion: 'No', MFAUsed: 'No' },
    }),
    cloudTrail(iso(now, 40), {
      eventSource: 'iam.amazonaws.com',
      eventName: 'CreateAccessKey',
      userIdentity: { type: 'Root', principalId: ACCOUNT, arn: `arn:aws:iam::${ACCOUNT}:root`, accountId: ACCOUNT },
      sourceIPAddress: pick(IPS, round, 2),
      requestParameters: { userName: 'deploy-bot' },
    }),
  ];
  for (let i = 0; i < 6; i++) {
    const name = pick(USERS, round, i + 1);
    events.push(
      cloudTrail(iso(now, 30 - i), {
        eventSource: i % 2 ? 's3.amazonaws.com' : 'ec2.amazonaws.com',
        eventName: i % 2 ? 'GetObject' : 'DescribeInstances',
        readOnly: true,
        userIdentity: iamUser(name),
        sourceIPAddress: pick(IPS, round, i),
        requestParameters: i % 2 ? { bucketName: 'acme-reports', key: `2026/q${(i % 4) + 1}.csv` } : { maxResults: 50 },
      }),
      cloudTrail(iso(now, 25 - i), {
        eventSource: 'signin.amazonaws.com',
        eventName: 'ConsoleLogin',
        eventType: 'AwsConsoleSignIn',
        userIdentity: iamUser(name),
        sourceIPAddress: pick(IPS, round, i + 3),
        responseElements: { ConsoleLogin: 'Success' },
        additionalEventData: { LoginTo: 'https://console.aws.amazon.com/console/home', MobileVersion: 'No', MFAUsed: 'Yes' },
      }),
    );
  }
  return events;
}

function okta(at: string, user: string, eventType: string, result: string, ip: string, extra: DemoEvent = {}): DemoEvent {
  return {
    uuid: randomUUID(),
    published: at,
    eventType,
    version: '0',
    severity: result === 'FAILURE' ? 'WARN' : 'INFO',
    displayMessage: eventType === 'user.session.start' ? 'User login to Okta' : 'User single sign on to app',
    actor: {
      id: `00u${user}00000000000`,
      type: 'User',
      alternateId: `${user}@acme.example`,
      displayName: user[0].toUpperCase() + user.slice(1),
    },
    client: {
      ipAddress: ip,
      userAgent: { rawUserAgent: AGENT, os: 'Mac OS X', browser: 'SAFARI' },
      geographicalContext: { country: 'United States', city: 'Denver', state: 'Colorado' },
      zone: 'null',
      device: 'Computer',
    },
    outcome: { result, ...(result === 'FAILURE' ? { reason: 'INVALID_CREDENTIALS' } : {}) },
    transaction: { type: 'WEB', id: randomUUID().replace(/-/g, '').slice(0, 20) },
    legacyEventType: result === 'FAILURE' ? 'core.user_auth.login_failed' : 'core.user_auth.login_success',
    ...extra,
  };
}

export function oktaEvents(now: Date, round: number): DemoEvent[] {
  const target = pick(USERS, round, 2);
  const attacker = pick(IPS, round, 4);
  const events: DemoEvent[] = [];
  for (let i = 0; i < 7; i++) events.push(okta(iso(now, 45 - i * 3), target, 'user.session.start', 'FAILURE', attacker));
  for (let i = 0; i < 4; i++) {
    const user = pick(USERS, round, i);
    events.push(okta(iso(now, 20 - i), user, 'user.session.start', 'SUCCESS', pick(IPS, round, i)));
    events.push(
      okta(iso(now, 15 - i), user, 'user.authentication.sso', 'SUCCESS', pick(IPS, round, i), {
        target: [{ id: '0oa1demoapp', type: 'AppInstance', alternateId: 'Acme Wiki', displayName: 'Acme Wiki' }],
      }),
    );
  }
  return events;
}

export function gitHubEvents(now: Date, round: number): DemoEvent[] {
  const actor = pick(USERS, round, 3);
  const repos = ['acme/payments', 'acme/website', 'acme/infra', 'acme/mobile'];
  const base = (secondsBefore: number, action: string, extra: DemoEvent) => ({
    action,
    actor,
    created_at: iso(now, secondsBefore),
    org: 'acme',
    user_agent: AGENT,
    actor_location: { country_code: 'US' },
    ...extra,
  });
  return [
    base(35, 'repo.access', { repo: pick(repos, round), visibility: 'public', previous_visibility: 'private' }),
    base(30, 'git.clone', { repo: pick(repos, round, 1), programmatic_access_type: 'OAuth access token' }),
    base(20, 'pull_request.merge', { repo: pick(repos, round, 2) }),
    base(10, 'repo.create', { repo: `acme/sandbox-${round}`, visibility: 'private' }),
  ];
}
