// What a user asks of their notification centre, checked: the change to make (timestamps that set, null that
// unsets), the notification named, and preferences (known topics and channels, each at most once). AppSync has
// already checked types and enums; these checks cover what GraphQL cannot say, with the messages of
// core/notifications.
import {
  CHANGE_REQUIRED,
  invalidTimestamp,
  isChannel,
  isTopic,
  type NotificationChange,
  type NotificationChannel,
  type NotificationTopic,
  type TopicPreference,
} from '../../../core/notifications';
import { NO_DUPLICATES } from '../../../core/validation/generic';
import { ApiError } from '../errors';
import { isNotificationId } from './repository';

const refuse = (message: string) => new ApiError('InvalidInput', message);

/** A timestamp sets, null (or the year-0001 "zero time") unsets; stored in UTC ISO form. */
function timestampOf(field: string, value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length > 40 || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw refuse(invalidTimestamp(field));
  if (value.startsWith('0001-')) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw refuse(invalidTimestamp(field));
  return new Date(time).toISOString();
}

/** The change an input asks for: at least one of readAt and archivedAt, each a timestamp or null. */
export function changeOf(input: Readonly<Record<string, unknown>>): NotificationChange {
  const has = (field: string) => Object.prototype.hasOwnProperty.call(input, field) && input[field] !== undefined;
  if (!has('readAt') && !has('archivedAt')) throw refuse(CHANGE_REQUIRED);
  return {
    ...(has('readAt') ? { readAt: timestampOf('readAt', input.readAt) } : {}),
    ...(has('archivedAt') ? { archivedAt: timestampOf('archivedAt', input.archivedAt) } : {}),
  };
}

/** The notification an id names, if it is an id this store makes (any other names nothing). */
export function notificationIdOf(value: unknown): string | null {
  return isNotificationId(value) ? value : null;
}

/** Preferences as given: known topics and channels, each at most once. */
export function preferencesOf(value: unknown): TopicPreference[] {
  if (!Array.isArray(value)) throw refuse('preferences must be a list');
  const topics = new Set<NotificationTopic>();
  return value.map((entry: { topic?: unknown; channels?: unknown }) => {
    if (!isTopic(entry?.topic)) throw refuse(`Unknown notification topic: ${String(entry?.topic).slice(0, 50)}`);
    if (topics.has(entry.topic)) throw refuse(NO_DUPLICATES);
    topics.add(entry.topic);
    if (!Array.isArray(entry.channels)) throw refuse('channels must be a list');
    const names = new Set<NotificationChannel>();
    const channels = entry.channels.map((channel: { name?: unknown; enabled?: unknown }) => {
      if (!isChannel(channel?.name)) throw refuse(`Unknown notification channel: ${String(channel?.name).slice(0, 50)}`);
      if (names.has(channel.name)) throw refuse(NO_DUPLICATES);
      names.add(channel.name);
      if (typeof channel.enabled !== 'boolean') throw refuse('enabled must be true or false');
      return { name: channel.name, enabled: channel.enabled };
    });
    return { topic: entry.topic, channels };
  });
}
