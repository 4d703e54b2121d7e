// An alert's events on its page, read through the search path (Athena stand-in over the lake) on the local
// runtime: a correlation alert shows the signals its run matched (which carry their own rules' alert ids), not
// the signals it did not match; the events table offers the fields the events have, not the table's empty
// columns. Screenshots go to $SHOTS_DIR when it is set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { lakeTime, partitionPath, SIGNALS_DATABASE } from '../../core/lake/layout';
import type { Alert } from '../../core/alerts/model';
import { putAlert } from '../../functions/lib/alerts/repository';
import { s3 } from '../../functions/lib/clients';
import { signIn } from '../local/harness';
import { useApiFunctionEnvironment } from '../functions/notifications/runtime-env';
import { browserSuite } from './browser';

const PASSWORD = 'Caracal-e2e-2026!';
const SHOTS_DIR = process.env.SHOTS_DIR;
const ALERT_ID = 'c'.repeat(31) + '7';
const suite = browserSuite();
const at = Date.now() - 3 * 3_600_000;
const signal = (minute: number, rule: string, row: string, user: string) => ({
  p_event_time: lakeTime(new Date(at + minute * 60_000)),
  p_log_type: 'AWS.CloudTrail',
  p_row_id: row,
  p_rule_id: rule,
  p_alert_id: (rule === 'Rule.A' ? 'a' : 'b').repeat(32),
  eventName: `${rule} by ${user}`,
  sourceIPAddress: '203.0.113.9',
  userIdentity: { userName: user },
});

beforeAll(async () => {
  const env = useApiFunctionEnvironment(suite.runtime);
  const rows = [signal(1, 'Rule.A', 'r1', 'alice'), signal(4, 'Rule.B', 'r2', 'bob'), signal(5, 'Rule.B', 'r3', 'alice')];
  await s3().send(
    new PutObjectCommand({
      Bucket: env.LAKE_BUCKET,
      Key: `${partitionPath(SIGNALS_DATABASE, 'aws_cloudtrail', lakeTime(new Date(at)))}/signals.json.gz`,
      Body: gzipSync(rows.map((r) => JSON.stringify(r)).join('\n')),
    }),
  );
  const first = new Date(at + 60_000).toISOString();
  const alert: Alert = {
    id: ALERT_ID,
    type: 'ALERT',
    title: 'A then B by the same user',
    severity: 'HIGH',
    status: 'OPEN',
    detectionId: 'Corr.AB',
    systemKind: null,
    sourceId: 'correlation',
    description: null,
    logTypes: ['AWS.CloudTrail'],
    eventCount: 2,
    firstEventAt: first,
    lastEventAt: new Date(at + 5 * 60_000).toISOString(),
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    // What a correlation run writes: the matched signals (core/correlation matchKey).
    dedupString: 'Rule.A@r1|Rule.B@r3',
    alertContext: null,
    runbook: null,
    reference: null,
    signalsTable: `${SIGNALS_DATABASE}.aws_cloudtrail`,
    assigneeId: null,
    revision: 0,
  };
  await putAlert(alert);
  const [admin] = suite.runtime.createdUsers;
  await signIn(suite.runtime, admin.username, admin.temporaryPassword, PASSWORD);
  if (SHOTS_DIR) mkdirSync(SHOTS_DIR, { recursive: true });
}, 120_000);

describe("a correlation alert's page", () => {
  it('shows the signals its run matched, with the fields they have', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.goto(`${suite.runtime.url}/`);
    await page.getByRole('textbox', { name: 'Email' }).fill(suite.runtime.createdUsers[0].username);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('banner').waitFor();
    await page.goto(`${suite.runtime.url}/alerts-and-errors/${ALERT_ID}/`);
    const events = page.getByRole('table', { name: 'Events' });
    await events.getByText('Rule.A by alice').waitFor();
    await events.getByText('Rule.B by alice').waitFor();
    expect(await events.getByText('Rule.B by bob').count()).toBe(0);
    // The default columns are fields the events hold (not the CloudTrail table's empty columns).
    const headers = await events.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['p_event_time', 'eventName', 'sourceIPAddress', 'userIdentity']));
    expect(headers).not.toContain('awsRegion');
    // A struct column holds the fields the event has, not every field of its type.
    await events.getByText('{"userName":"alice"}').first().waitFor();
    if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, 'correlation-alert-events.png'), fullPage: true });
    await page.close();
  }, 120_000);
});
