// From a log line to an alert, end to end through the local runtime: detections created through the API,
// objects dropped into the ingest bucket and requests posted to an HTTP source, then the signals and detection
// errors in the lake, the alerts with dedup and threshold, signals-only detections, and the alerts API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUDTRAIL, cloudTrailLine, GITHUB_AUDIT, gitHubAuditLine } from './fixtures';
import {
  api,
  createHttpSource,
  createS3Source,
  dropObject,
  eventually,
  listKeys,
  postToSource,
  queryLake,
  startPipelineRuntime,
  type CreatedSource,
  type PipelineRuntime,
} from './helpers';

let p: PipelineRuntime;
let github: CreatedSource;

const LOGIN_RULE = {
  yaml: `AnalysisType: rule
Filename: login.py
RuleID: Test.Login
DisplayName: Console login
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: Medium
Tags: [Test]
Reports: { MITRE ATT&CK: ["TA0001:T1078"] }
`,
  body: `def rule(event):
    return event.get("eventName") == "ConsoleLogin"

def title(event):
    return "Console login by " + event.deep_get("userIdentity", "userName", default="?")

def dedup(event):
    return event.deep_get("userIdentity", "userName", default="?")

def severity(event):
    return "HIGH" if event.deep_get("userIdentity", "userName") == "root" else "DEFAULT"

def alert_context(event):
    return {"ip": event.get("sourceIPAddress")}
`,
};

const BROKEN_RULE = {
  yaml: `AnalysisType: rule
Filename: broken.py
RuleID: Test.Broken
Enabled: true
LogTypes: [AWS.CloudTrail]
Severity: Low
`,
  body: `def rule(event):
    if event.get("eventName") == "Boom":
        raise ValueError("cannot handle Boom")
    return False
`,
};

const THRESHOLD_RULE = {
  yaml: `AnalysisType: rule
RuleID: Test.RepoCreates
DisplayName: Many repositories created
Enabled: true
LogTypes: [GitHub.Audit]
Severity: Low
Threshold: 3
Detection:
  - Key: action
    Condition: Equals
    Value: repo.create
GroupBy:
  - Key: actor
AlertTitle: "Repositories created by {actor}"
`,
};

const SIGNAL_RULE = {
  yaml: `AnalysisType: rule
RuleID: Test.Clones
Enabled: true
LogTypes: [GitHub.Audit]
Severity: Info
CreateAlert: false
Detection:
  - Key: action
    Condition: Equals
    Value: git.clone
`,
};

const CREATE = `mutation($input: SaveDetectionInput!) { createDetection(input: $input) { id versionId enabled } }`;
const ALERTS = `query($input: AlertsInput!) { alerts(input: $input) {
  edges { cursor node { id type title severity status detectionId logTypes eventCount firstEventAt lastEventAt createdAt dedupString alertContext } }
  pageInfo { endCursor hasNextPage hasPreviousPage } } }`;
const EVENTS = `query($input: AlertEventsInput!) { alertEvents(input: $input) { edges { node cursor } pageInfo { hasNextPage endCursor } } }`;

interface AlertNode {
  id: string;
  type: string;
  title: string;
  severity: string;
  status: string;
  detectionId: string | null;
  logTypes: string[];
  eventCount: number;
  dedupString: string;
  alertContext: string | null;
  createdAt: string;
}
type AlertsAnswer = {
  alerts: { edges: { cursor: string; node: AlertNode }[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
};

const alerts = async (input: Record<string, unknown>) =>
  (await api<AlertsAnswer>(p, ALERTS, { input })).alerts.edges.map((e) => e.node);
const eventTime = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const signalsKeys = () => listKeys(p, p.env.LAKE_BUCKET, 'panther_signals/');

beforeAll(async () => {
  p = await startPipelineRuntime();
  for (const detection of [LOGIN_RULE, BROKEN_RULE, THRESHOLD_RULE, SIGNAL_RULE]) await api(p, CREATE, { input: detection });
  await createS3Source(p, { label: 'Trail', bucket: p.env.INGEST_BUCKET, prefix: 'trail/', logTypes: [CLOUDTRAIL] });
  github = await createHttpSource(p, { label: 'GitHub', logTypes: [GITHUB_AUDIT], authType: 'None' });
}, 180_000);

afterAll(async () => {
  await p?.stop();
});

describe('detections over dropped objects', () => {
  it('turns matches into signals and alerts, deduped by the dedup string, and errors into DETECTION_ERROR alerts', async () => {
    const lines = [
      cloudTrailLine(eventTime(3), 'ConsoleLogin'),
      cloudTrailLine(eventTime(2), 'ConsoleLogin'),
      cloudTrailLine(eventTime(2), 'ConsoleLogin', { userIdentity: { type: 'IAMUser', userName: 'root' } }),
      cloudTrailLine(eventTime(1), 'Boom'),
      cloudTrailLine(eventTime(1), 'DescribeInstances'),
    ];
    await dropObject(p, p.env.INGEST_BUCKET, 'trail/one.json', lines.join('\n'));
    const found = await eventually(
      () => alerts({ detectionId: 'Test.Login' }),
      (list) => list.length === 2,
      60_000,
    );
    const alice = found.find((a) => a.dedupString === 'alice')!;
    const root = found.find((a) => a.dedupString === 'root')!;
    expect(alice).toMatchObject({
      type: 'ALERT',
      title: 'Console login by alice',
      severity: 'MEDIUM',
      eventCount: 2,
      status: 'OPEN',
    });
    expect(alice.logTypes).toEqual([CLOUDTRAIL]);
    expect(JSON.parse(alice.alertContext!)).toEqual({ ip: '203.0.113.7' });
    expect(root).toMatchObject({ title: 'Console login by root', severity: 'HIGH', eventCount: 1 });

    const errors = await eventually(
      () => alerts({ type: 'DETECTION_ERROR', detectionId: 'Test.Broken' }),
      (list) => list.length === 1,
    );
    expect(errors[0].title).toContain('cannot handle Boom');

    // Signals are written once the batch's alerts are counted.
    await eventually(
      () => listKeys(p, p.env.LAKE_BUCKET, 'panther_rule_errors/aws_cloudtrail/'),
      (keys) => keys.length > 0,
    );
    await eventually(signalsKeys, (keys) => keys.some((k) => k.startsWith('panther_signals/aws_cloudtrail/')));
    const signals = await queryLake(
      p,
      `SELECT p_alert_id, p_rule_id, p_rule_severity, p_rule_tags, p_alert_context, p_alert_creation_time, p_alert_update_time
         FROM panther_signals.aws_cloudtrail ORDER BY p_rule_severity, p_alert_id`,
    );
    expect(signals).toHaveLength(3);
    expect(signals.filter((s) => s.p_alert_id === alice.id)).toHaveLength(2);
    expect(signals.every((s) => s.p_rule_id === 'Test.Login' && s.p_alert_creation_time && s.p_alert_update_time)).toBe(true);
    expect(signals.map((s) => s.p_rule_severity).sort()).toEqual(['HIGH', 'MEDIUM', 'MEDIUM']);
    const ruleErrors = await queryLake(p, 'SELECT p_rule_id, p_rule_error, p_alert_id FROM panther_rule_errors.aws_cloudtrail');
    expect(ruleErrors).toEqual([
      { p_rule_id: 'Test.Broken', p_rule_error: expect.stringContaining('cannot handle Boom'), p_alert_id: errors[0].id },
    ]);
  });

  it('adds later matches inside the dedup window to the same alert', async () => {
    await dropObject(p, p.env.INGEST_BUCKET, 'trail/two.json', cloudTrailLine(eventTime(0), 'ConsoleLogin'));
    const list = await eventually(
      () => alerts({ detectionId: 'Test.Login' }),
      (l) => l.find((a) => a.dedupString === 'alice')?.eventCount === 3,
      60_000,
    );
    expect(list).toHaveLength(2);
  });

  it('reads an alert and its events from the signals', async () => {
    const [alice] = (await alerts({ detectionId: 'Test.Login' })).filter((a) => a.dedupString === 'alice');
    const one = await api<{ alert: AlertNode }>(p, `query($id: ID!) { alert(id: $id) { id title eventCount } }`, {
      id: alice.id,
    });
    expect(one.alert).toMatchObject({ id: alice.id, eventCount: 3 });
    const first = await api<{
      alertEvents: { edges: { node: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
    }>(p, EVENTS, { input: { alertId: alice.id, pageSize: 2 } });
    expect(first.alertEvents.edges).toHaveLength(2);
    expect(first.alertEvents.pageInfo.hasNextPage).toBe(true);
    const rest = await api<{ alertEvents: { edges: { node: string }[]; pageInfo: { hasNextPage: boolean } } }>(p, EVENTS, {
      input: { alertId: alice.id, pageSize: 2, cursor: first.alertEvents.pageInfo.endCursor },
    });
    expect(rest.alertEvents.edges).toHaveLength(1);
    const events = [...first.alertEvents.edges, ...rest.alertEvents.edges].map(
      (e) => JSON.parse(e.node) as Record<string, unknown>,
    );
    expect(events.every((e) => e.p_alert_id === alice.id && e.eventName === 'ConsoleLogin')).toBe(true);
    const missing = await api<{ alert: null }>(p, `query { alert(id: "0123456789abcdef0123456789abcdef") { id } }`);
    expect(missing.alert).toBeNull();
  });
});

describe('detections over HTTP ingest', () => {
  it('holds the alert back until the threshold is reached, and keeps signals-only matches out of alerts', async () => {
    const now = Math.floor(Date.now() / 1000);
    const post = (lines: string[]) => postToSource(p, github.endpointUrl ?? github.id, lines.join('\n'));
    expect(
      (await post([gitHubAuditLine(now - 30), gitHubAuditLine(now - 20), gitHubAuditLine(now - 10, 'git.clone')])).status,
    ).toBe(200);
    await eventually(signalsKeys, (keys) => keys.some((k) => k.startsWith('panther_signals/github_audit/')), 60_000);
    expect(await alerts({ detectionId: 'Test.RepoCreates' })).toEqual([]);

    expect((await post([gitHubAuditLine(now - 5)])).status).toBe(200);
    const list = await eventually(
      () => alerts({ detectionId: 'Test.RepoCreates' }),
      (l) => l.length === 1,
      60_000,
    );
    expect(list[0]).toMatchObject({ title: 'Repositories created by octocat', eventCount: 3, severity: 'LOW' });
    expect(await alerts({ detectionId: 'Test.Clones' })).toEqual([]);
    const rows = await queryLake(
      p,
      `SELECT p_rule_id, p_alert_id FROM panther_signals.github_audit ORDER BY p_rule_id, p_event_time`,
    );
    expect(rows.filter((r) => r.p_rule_id === 'Test.Clones')).toEqual([{ p_rule_id: 'Test.Clones', p_alert_id: null }]);
    // Events below the threshold already carry the id of the alert their window becomes.
    expect(rows.filter((r) => r.p_rule_id === 'Test.RepoCreates').map((r) => r.p_alert_id)).toEqual([
      list[0].id,
      list[0].id,
      list[0].id,
    ]);
  });
});

describe('the alerts list', () => {
  it('lists newest first, filters by type, severity and status, and pages with a cursor', async () => {
    const all = await alerts({ pageSize: 50 });
    const times = all.map((a) => `${a.createdAt}#${a.id}`);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(all.map((a) => a.type))).toEqual(new Set(['ALERT', 'DETECTION_ERROR']));
    expect((await alerts({ type: 'ALERT', severity: ['HIGH'] })).map((a) => a.dedupString)).toEqual(['root']);
    expect(await alerts({ status: ['RESOLVED'] })).toEqual([]);

    const first = await api<AlertsAnswer>(p, ALERTS, { input: { pageSize: 2 } });
    expect(first.alerts.pageInfo.hasNextPage).toBe(true);
    const second = await api<AlertsAnswer>(p, ALERTS, { input: { pageSize: 50, cursor: first.alerts.pageInfo.endCursor } });
    expect([...first.alerts.edges, ...second.alerts.edges].map((e) => e.node.id)).toEqual(all.map((a) => a.id));
  });

  it('refuses bad input with clear errors', async () => {
    await expect(api(p, ALERTS, { input: { pageSize: 0 } })).rejects.toThrow(/pageSize must be a whole number from 1 to 999/);
    await expect(api(p, ALERTS, { input: { cursor: "'; DROP TABLE alerts; --" } })).rejects.toThrow(
      /cursor is not a cursor of this list/,
    );
    await expect(api(p, EVENTS, { input: { alertId: 'nope' } })).rejects.toThrow(/Alert not found/);
  });
});
