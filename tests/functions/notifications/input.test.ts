// Every check of the notification operations' arguments, with its message: page sizes, cursors,
// timestamps, the change asked for, and preferences (unknown, duplicate, wrong types, huge, injection).
import { describe, expect, it } from 'vitest';
import {
  decodeCursor as decodeAnyCursor,
  encodeCursor,
  INVALID_CURSOR,
  pageSizeMessage,
  pageSizeOf as pageSizeWithin,
} from '../../../functions/api/resolvers/arguments';
import { NOTIFICATIONS_PAGE } from '../../../functions/api/resolvers/notifications';
import { changeOf, notificationIdOf, preferencesOf } from '../../../functions/lib/notifications/input';
import { isNotificationId, newNotificationId } from '../../../functions/lib/notifications/repository';
import { CHANGE_REQUIRED } from '../../../core/notifications';
import { NO_DUPLICATES } from '../../../core/validation/generic';

const ID = newNotificationId(new Date('2026-11-21T12:00:00Z'));
const pageSizeOf = (value: unknown) => pageSizeWithin(value, NOTIFICATIONS_PAGE);
const decodeCursor = (value: unknown) => decodeAnyCursor(value, isNotificationId);
const INVALID_PAGE_SIZE = pageSizeMessage(NOTIFICATIONS_PAGE.max);
const invalid = (message: string) => expect.objectContaining({ errorType: 'InvalidInput', message });

describe('page size', () => {
  it('is 100 when left out and 1 to 500 otherwise', () => {
    expect(pageSizeOf(undefined)).toBe(NOTIFICATIONS_PAGE.default);
    expect(pageSizeOf(null)).toBe(100);
    expect(pageSizeOf(1)).toBe(1);
    expect(pageSizeOf(500)).toBe(500);
    for (const bad of [0, -1, 501, 1.5, '10', Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => pageSizeOf(bad)).toThrow(invalid(INVALID_PAGE_SIZE));
    expect(INVALID_PAGE_SIZE).toBe('pageSize must be a whole number from 1 to 500');
  });
});

describe('cursor', () => {
  it('round-trips a notification id', () => {
    expect(decodeCursor(encodeCursor(ID))).toBe(ID);
    expect(decodeCursor(undefined)).toBeUndefined();
    expect(decodeCursor(null)).toBeUndefined();
    expect(decodeCursor('')).toBeUndefined();
  });

  it('refuses anything that is not the cursor of a notification', () => {
    for (const bad of [
      'not-a-cursor',
      encodeCursor('USER#someone'),
      encodeCursor(`${ID}#extra`),
      `${encodeCursor(ID)}=`,
      "' OR 1=1 --",
      'A'.repeat(10_000),
      42,
      {},
    ])
      expect(() => decodeCursor(bad)).toThrow(invalid(INVALID_CURSOR));
  });
});

describe('notification id', () => {
  it('accepts only ids this store makes', () => {
    expect(notificationIdOf(ID)).toBe(ID);
    for (const bad of ['', 'nope', `${ID} `, 'NOTIF#x', null, 7]) expect(notificationIdOf(bad)).toBeNull();
  });
});

describe('the change asked for', () => {
  it('sets with a timestamp, in UTC, and unsets with null or the year-0001 zero time', () => {
    expect(changeOf({ readAt: '2026-11-21T13:00:00+01:00' })).toEqual({ readAt: '2026-11-21T12:00:00.000Z' });
    expect(changeOf({ archivedAt: null })).toEqual({ archivedAt: null });
    expect(changeOf({ readAt: '0001-01-01T00:00:00Z', archivedAt: '2026-11-21T12:00:00Z' })).toEqual({
      readAt: null,
      archivedAt: '2026-11-21T12:00:00.000Z',
    });
  });

  it('needs readAt or archivedAt', () => {
    expect(() => changeOf({})).toThrow(invalid(CHANGE_REQUIRED));
    expect(() => changeOf({ id: ID, readAt: undefined })).toThrow(invalid(CHANGE_REQUIRED));
  });

  it('refuses what is not a date-time', () => {
    for (const bad of ['yesterday', '2026-13-45T99:00:00Z', '2026-11-21', 12, true, 'x'.repeat(100_000)])
      expect(() => changeOf({ readAt: bad })).toThrow(invalid('readAt must be an ISO 8601 date-time or null'));
    expect(() => changeOf({ archivedAt: 'soon' })).toThrow(invalid('archivedAt must be an ISO 8601 date-time or null'));
  });
});

describe('preferences', () => {
  const inApp = (topic: string, enabled: unknown = true) => ({ topic, channels: [{ name: 'IN_APP', enabled }] });

  it('takes known topics and channels', () => {
    expect(preferencesOf([inApp('SYSTEM_ERROR', false)])).toEqual([
      { topic: 'SYSTEM_ERROR', channels: [{ name: 'IN_APP', enabled: false }] },
    ]);
    expect(preferencesOf([])).toEqual([]);
  });

  it('refuses duplicates, unknown names, wrong types and a missing list', () => {
    expect(() => preferencesOf([inApp('SYSTEM_ERROR'), inApp('SYSTEM_ERROR')])).toThrow(invalid(NO_DUPLICATES));
    expect(() =>
      preferencesOf([
        {
          topic: 'SYSTEM_ERROR',
          channels: [
            { name: 'IN_APP', enabled: true },
            { name: 'IN_APP', enabled: false },
          ],
        },
      ]),
    ).toThrow(invalid(NO_DUPLICATES));
    expect(() => preferencesOf([inApp('<script>alert(1)</script>')])).toThrow(
      invalid('Unknown notification topic: <script>alert(1)</script>'),
    );
    expect(() => preferencesOf([inApp('X'.repeat(10_000))])).toThrow(invalid(`Unknown notification topic: ${'X'.repeat(50)}`));
    expect(() => preferencesOf([{ topic: 'SYSTEM_ERROR', channels: [{ name: 'EMAIL', enabled: true }] }])).toThrow(
      invalid('Unknown notification channel: EMAIL'),
    );
    expect(() => preferencesOf([inApp('SYSTEM_ERROR', 'yes')])).toThrow(invalid('enabled must be true or false'));
    expect(() => preferencesOf([{ topic: 'SYSTEM_ERROR' }])).toThrow(invalid('channels must be a list'));
    expect(() => preferencesOf('all')).toThrow(invalid('preferences must be a list'));
    expect(() => preferencesOf([null])).toThrow(invalid('Unknown notification topic: undefined'));
  });
});
