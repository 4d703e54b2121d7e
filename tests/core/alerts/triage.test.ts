import { describe, expect, it } from 'vitest';
import { describeActivity, type AlertActivity } from '../../../core/alerts/activity';
import { alertListViewParams, createdRange, parseAlertListView, presetStart } from '../../../core/alerts/filters';
import { ALERT_STATUSES } from '../../../core/alerts/model';
import { canMoveAlert, commentError, statusChangeError } from '../../../core/alerts/triage';

describe('alert status transitions', () => {
  it('moves forward OPEN → TRIAGED → RESOLVED → CLOSED, may skip ahead, and goes back only to OPEN', () => {
    const allowed = ALERT_STATUSES.flatMap((from) =>
      ALERT_STATUSES.filter((to) => canMoveAlert(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed).toEqual([
      'OPEN→TRIAGED',
      'OPEN→RESOLVED',
      'OPEN→CLOSED',
      'TRIAGED→OPEN',
      'TRIAGED→RESOLVED',
      'TRIAGED→CLOSED',
      'RESOLVED→OPEN',
      'RESOLVED→CLOSED',
      'CLOSED→OPEN',
    ]);
  });

  it('says why a change is refused', () => {
    expect(statusChangeError('OPEN', 'TRIAGED')).toBeNull();
    expect(statusChangeError('CLOSED', 'CLOSED')).toBe('The alert is Closed already');
    expect(statusChangeError('CLOSED', 'RESOLVED')).toBe('An alert that is Closed cannot become Resolved');
    expect(statusChangeError('OPEN', 'DONE')).toBe('status must be one of OPEN, TRIAGED, RESOLVED, CLOSED');
  });

  it('refuses an empty or too long comment', () => {
    expect(commentError(' \n ')).toBe('Write a comment');
    expect(commentError('x'.repeat(10_001))).toBe('A comment has at most 10,000 characters');
    expect(commentError(' ok ')).toBeNull();
  });
});

describe('activity sentences', () => {
  const base: AlertActivity = {
    id: '1',
    alertId: 'a',
    kind: 'CREATED',
    at: '2026-01-01T00:00:00.000Z',
    actorId: null,
    actorName: null,
    from: null,
    to: null,
    text: null,
    eventCount: null,
    destinationId: null,
    destinationName: null,
    ok: null,
    statusCode: null,
    answer: null,
  };
  const names = (id: string) => ({ u1: 'Ada', u2: 'Bob' })[id] ?? id;
  it('tells who changed what, from and to', () => {
    expect(describeActivity({ ...base, kind: 'STATUS_CHANGED', actorName: 'ada@x', from: 'OPEN', to: 'CLOSED' })).toBe(
      'ada@x changed the status from OPEN to CLOSED',
    );
    expect(describeActivity({ ...base, kind: 'ASSIGNEE_CHANGED', actorId: 'u1', from: 'u2', to: 'u1' }, names)).toBe(
      'Ada assigned it to Ada (was Bob)',
    );
    expect(describeActivity({ ...base, kind: 'ASSIGNEE_CHANGED', actorId: 'u1', from: 'u2', to: null }, names)).toBe(
      'Ada unassigned it from Bob',
    );
    expect(describeActivity({ ...base, kind: 'EVENTS_ADDED', eventCount: 3 })).toBe('3 events added');
    expect(
      describeActivity({ ...base, kind: 'DELIVERY', destinationName: 'Slack', ok: false, statusCode: 500, answer: 'boom' }),
    ).toBe('Delivery to Slack failed: 500 boom');
  });
});

describe('the list view in the URL', () => {
  it('reads what it wrote, leaving out defaults and unknown values', () => {
    const view = parseAlertListView(
      new URLSearchParams(
        'type=ALERT&severity=HIGH,NOPE,LOW&status=OPEN&assignee=me&detection=D.1&logType=AWS.CloudTrail&source=s1&created=custom&from=2026-01-01T00:00:00Z&to=bad&q=root&sort=severity&dir=asc',
      ),
    );
    expect(view).toEqual({
      type: 'ALERT',
      severities: ['HIGH', 'LOW'],
      statuses: ['OPEN'],
      assignee: 'me',
      detectionId: 'D.1',
      logType: 'AWS.CloudTrail',
      sourceId: 's1',
      created: 'custom',
      from: '2026-01-01T00:00:00.000Z',
      to: null,
      title: 'root',
      sort: 'severity',
      ascending: true,
    });
    expect(parseAlertListView(alertListViewParams(view))).toEqual(view);
    expect(alertListViewParams(parseAlertListView(new URLSearchParams('sort=bogus&created=2y'))).toString()).toBe('');
  });

  it("counts the specification's presets back from now", () => {
    const now = new Date('2026-07-31T12:00:00Z');
    expect(presetStart('24h', now).toISOString()).toBe('2026-07-30T12:00:00.000Z');
    expect(presetStart('1w', now).toISOString()).toBe('2026-07-24T12:00:00.000Z');
    expect(presetStart('3m', now).toISOString()).toBe('2026-05-01T12:00:00.000Z');
    const view = parseAlertListView(new URLSearchParams('created=6m'));
    expect(createdRange(view, now)).toEqual({ createdFrom: '2026-01-31T12:00:00.000Z', createdTo: null });
  });
});
