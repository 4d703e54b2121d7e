// Jira comment sync (docs/destinations.md) on dynalite and the SQS stand-in, with Jira played by a receiver on
// 127.0.0.1: a comment added to an alert (addAlertComment) publishes COMMENT_ADDED; it goes only to the Jira
// destinations that opened an issue for the alert and sync comments, and is posted to the issue as text with its
// author's name (Cloud: an Atlassian Document, Data Center: a string). Jira's refusal is the delivery's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAlertComment, alertActivity, createSystemAlert } from '../../../functions/lib/alerts';
import { alertDeliveries, fanOutAlertChange, syncDestinationComment } from '../../../functions/lib/delivery';
import { createDestination } from '../../../functions/lib/destinations';
import {
  actor,
  fakeTrackers,
  reply,
  routed,
  sendingOptions,
  startDeliveryHarness,
  triager,
  type DeliveryHarness,
} from './harness';

let h: DeliveryHarness;
const fake = fakeTrackers(() => h.base);
/** The comments posted to each issue. */
const comments = (key: string) => fake.issues.get(key)?.comments;

beforeAll(async () => {
  h = await startDeliveryHarness({
    table: 'comment-sync',
    handler: (request, res) =>
      fake.handle(request, res) || reply(res, 404, { errorMessages: [`no route ${request.method} ${request.path}`] }),
  });
});

afterAll(() => h.stop());

const caller = triager('ana');
const options = sendingOptions();

describe('Jira comment sync', () => {
  it('posts a new comment, with its author, to the issues of the Jira destinations that sync comments only', async () => {
    const cloud = await createDestination(
      { outputType: 'jira', displayName: 'Jira Cloud', ...routed, config: h.jiraConfig('jira', { syncComments: true }) },
      actor,
    );
    const dc = await createDestination(
      {
        outputType: 'jiradatacenter',
        displayName: 'Jira DC',
        ...routed,
        config: h.jiraConfig('jiradc', { syncComments: true }),
      },
      actor,
    );
    const quiet = await createDestination(
      { outputType: 'jira', displayName: 'Jira quiet', ...routed, config: h.jiraConfig('jiraquiet', { syncComments: false }) },
      actor,
    );
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Quiet source', description: 'No data', severity: 'HIGH', dedupKey: 'comment-1' },
      { onCreated: async () => undefined },
    );
    const created = h.lastChange();
    expect((await fanOutAlertChange(created)).queued.sort()).toEqual([cloud.id, dc.id, quiet.id].sort());
    await h.drain();
    const keyOf = async (id: string) => (await alertDeliveries(created.alertId)).find((d) => d.destinationId === id)!.reference!;
    const [cloudKey, dcKey, quietKey] = [await keyOf(cloud.id), await keyOf(dc.id), await keyOf(quiet.id)];
    expect(new Set([cloudKey, dcKey, quietKey]).size).toBe(3);

    await addAlertComment({ alertId: created.alertId, text: '  Looked at it.\nA **false** positive: <b>x</b>  ' }, caller);
    const change = h.lastChange();
    expect(change).toMatchObject({ kind: 'alert-changed', change: 'COMMENT_ADDED', alertId: created.alertId });
    h.received.length = 0;
    expect((await fanOutAlertChange(change)).queued.sort()).toEqual([cloud.id, dc.id].sort());
    const results = await h.drain();
    expect(results.every((r) => r.done)).toBe(true);

    expect(comments(cloudKey)).toEqual([
      {
        type: 'doc',
        version: 1,
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'ana@caracal.local commented in Caracal:' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'Looked at it.' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'A **false** positive: <b>x</b>' }] },
        ],
      },
    ]);
    expect(comments(dcKey)).toEqual(['ana@caracal.local commented in Caracal:\n\nLooked at it.\nA **false** positive: <b>x</b>']);
    expect(comments(quietKey)).toEqual([]);
    expect(h.received.filter((s) => s.path.startsWith('/jiraquiet'))).toEqual([]);
    const dcPost = h.received.find((s) => s.path.startsWith('/jiradc/'))!;
    expect(dcPost.path).toBe(`/jiradc/rest/api/2/issue/${dcKey}/comment`);

    const record = (await alertDeliveries(created.alertId)).find((d) => d.destinationId === cloud.id)!;
    expect(record).toMatchObject({ status: 'DELIVERED', lastAnswer: `Comment added to ${cloudKey}`, reference: cloudKey });
    const activity = await alertActivity(created.alertId);
    expect(activity.some((a) => a.kind === 'DELIVERY' && a.answer === `Comment added to ${dcKey}`)).toBe(true);

    // The same change read twice is not posted twice; a second comment is its own change.
    expect((await fanOutAlertChange(change)).queued).toEqual([]);
    await new Promise((r) => setTimeout(r, 5));
    await addAlertComment({ alertId: created.alertId, text: 'Closing.' }, caller);
    await fanOutAlertChange(h.lastChange());
    await h.drain();
    expect(comments(cloudKey)).toHaveLength(2);
    expect(comments(dcKey)?.[1]).toBe('ana@caracal.local commented in Caracal:\n\nClosing.');
  });

  it('an alert no destination opened an issue for: nothing to sync', async () => {
    await createSystemAlert(
      { kind: 'SOURCE_NO_DATA', title: 'Other source', description: 'No data', severity: 'LOW', dedupKey: 'comment-2' },
      { onCreated: async () => undefined },
    );
    const created = h.lastChange();
    await addAlertComment({ alertId: created.alertId, text: 'Nothing opened' }, caller);
    expect(await fanOutAlertChange(h.lastChange())).toEqual({ queued: [], skipped: 'no destination syncs comments' });
  });

  it("Jira's refusal is the delivery's answer; types without comment sync and missing issues fail for good", async () => {
    const destination = {
      id: 'd-x',
      outputType: 'jira',
      displayName: 'Jira',
      config: h.jiraConfig('jira', { syncComments: true }),
    };
    const sync = { alertId: 'a-x', text: 'hello', author: 'bo@example.com' };
    const missing = await syncDestinationComment(destination, { ...sync, reference: 'SEC-999' }, options);
    expect(missing).toMatchObject({ ok: false, statusCode: 404 });
    const none = await syncDestinationComment(destination, { ...sync, reference: '' }, options);
    expect(none).toMatchObject({ ok: false, permanent: true, answer: 'No issue was opened for this alert to sync' });
    const slack = await syncDestinationComment({ ...destination, outputType: 'slack' }, { ...sync, reference: 'X' }, options);
    expect(slack).toMatchObject({ ok: false, permanent: true, answer: 'slack destinations have no comment sync' });
  });
});
