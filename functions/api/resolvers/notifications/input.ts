// Checks of the notification operations' arguments. AppSync has already checked types and enums; these
// checks cover what GraphQL cannot say (ranges, cursors, timestamps, combinations), with a clear message.
import { ApiError } from '../../../lib/errors';
import type { PageRule } from '../arguments';
import {
  isChannel,
  isTopic,
  type NotificationChannel,
  type NotificationTopic,
  type TopicPreference,
} from '../../../lib/notifications/model';
import { isNotificationId, type NotificationChange } from '../../../lib/notifications/repository';
import { NO_DUPLICATES } from '../../../../core/validation/generic';

export const NOTIFICATIONS_PAGE: PageRule = { default: 100, max: 500 };

export const UNREAD_ONLY_INBOX = 'unreadOnly applies to the inbox only';
export const CHANGE_REQUIRED = 'Give readAt or archivedAt';
const invalidTimestamp = (field: string) => `${field} must be an ISO 8601 date-time or null`;

/** A timestamp sets, null (or the year-0001 "zero time") unsets; stored in UTC ISO form. */
function timestampOf(field: string, value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length > 40 || !/^\d{4}-\d{2}-\d{2}T/.test(value))
    throw new ApiError('InvalidInput', invalidTimestamp(field));
  if (value.startsWith('0001-')) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new ApiError('InvalidInput', invalidTimestamp(field));
  return new Date(time).toISOString();
}

/** The change an input asks for: at least one of readAt and archivedAt, each a timestamp or null. */
export function changeOf(input: Record<string, unknown>): NotificationChange {
  const has = (field: string) => Object.prototype.hasOwnProperty.call(input, field) && input[field] !== undefined;
  if (!has('readAt') && !has('archivedAt')) throw new ApiError('InvalidInput', CHANGE_REQUIRED);
  return {
    ...(has('readAt') ? { readAt: timestampOf('readAt', input.readAt) } : {}),
    ...(has('archivedAt') ? { archivedAt: timestampOf('archivedAt', input.archivedAt) } : {}),
  };
}

export function notificationIdOf(value: unknown): string | null {
  return isNotificationId(value) ? value : null;
}

/** Preferences as given: known topics and channels, each at most once. */
export function preferencesOf(value: unknown): TopicPreference[] {
  if (!Array.isArray(value)) throw new ApiError('InvalidInput', 'preferences must be a list');
  const topics = new Set<NotificationTopic>();
  return value.map((entry: { topic?: unknown; channels?: unknown }) => {
    if (!isTopic(entry?.topic))
      throw new ApiError('InvalidInput', `Unknown notification topic: ${String(entry?.topic).slice(0, 50)}`);
    if (topics.has(entry.topic)) throw new ApiError('InvalidInput', NO_DUPLICATES);
    topics.add(entry.topic);
    if (!Array.isArray(entry.channels)) throw new ApiError('InvalidInput', 'channels must be a list');
    const names = new Set<NotificationChannel>();
    const channels = entry.channels.map((channel: { name?: unknown; enabled?: unknown }) => {
      if (!isChannel(channel?.name))
        throw new ApiError('InvalidInput', `Unknown notification channel: ${String(channel?.name).slice(0, 50)}`);
      if (names.has(channel.name)) throw new ApiError('InvalidInput', NO_DUPLICATES);
      names.add(channel.name);
      if (typeof channel.enabled !== 'boolean') throw new ApiError('InvalidInput', 'enabled must be true or false');
      return { name: channel.name, enabled: channel.enabled };
    });
    return { topic: entry.topic, channels };
  });
}
