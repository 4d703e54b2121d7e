// Notifications: the vocabulary (topics, levels, delivery channels, the lists and the stored shapes), the
// preferences' defaults, and the messages of the rules a user's requests to their notification centre follow.

export const NOTIFICATION_TOPICS = ['SYSTEM_NOTIFICATION', 'SYSTEM_ERROR', 'DETECTION_NOTIFICATION'] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];

export const NOTIFICATION_LEVELS = ['INFO', 'WARNING', 'ERROR'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** The one delivery channel so far: the notification centre of the web app. */
export const NOTIFICATION_CHANNELS = ['IN_APP'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Longest title and message kept; longer text is cut (a notification is a pointer, not a report). */
export const TITLE_MAX = 200;
export const MESSAGE_MAX = 4000;

/** The lists a user's notifications fall into: the inbox, its unread part, and the archive. */
export type NotificationList = 'INBOX' | 'ARCHIVED' | 'UNREAD';

/** Which notifications a bulk change considers. */
export const NOTIFICATION_SCOPES = ['INBOX', 'ARCHIVED'] as const;
export type NotificationScope = (typeof NOTIFICATION_SCOPES)[number];

export interface Notification {
  readonly id: string;
  readonly userId: string;
  readonly topic: NotificationTopic;
  readonly level: NotificationLevel;
  readonly title: string;
  readonly message: string;
  readonly createdAt: string;
  readonly readAt: string | null;
  readonly archivedAt: string | null;
  readonly alertId: string | null;
}

export interface NewNotification {
  readonly topic: NotificationTopic;
  readonly level: NotificationLevel;
  readonly title: string;
  readonly message: string;
  /** The alert the notification is about, if any. */
  readonly alertId?: string;
}

/** What to change: a timestamp sets the field, null unsets it, absent leaves it. */
export interface NotificationChange {
  readonly readAt?: string | null;
  readonly archivedAt?: string | null;
}

export interface ChannelPreference {
  readonly name: NotificationChannel;
  readonly enabled: boolean;
}

export interface TopicPreference {
  readonly topic: NotificationTopic;
  readonly channels: readonly ChannelPreference[];
}

export const isTopic = (value: unknown): value is NotificationTopic =>
  typeof value === 'string' && (NOTIFICATION_TOPICS as readonly string[]).includes(value);
export const isLevel = (value: unknown): value is NotificationLevel =>
  typeof value === 'string' && (NOTIFICATION_LEVELS as readonly string[]).includes(value);
export const isChannel = (value: unknown): value is NotificationChannel =>
  typeof value === 'string' && (NOTIFICATION_CHANNELS as readonly string[]).includes(value);

/** Saved preferences completed with the defaults, in topic order (a topic or channel never saved is on). */
export function completePreferences(saved: readonly TopicPreference[]): TopicPreference[] {
  return NOTIFICATION_TOPICS.map((topic) => {
    const stored = saved.find((p) => p.topic === topic);
    return {
      topic,
      channels: NOTIFICATION_CHANNELS.map((name) => ({
        name,
        enabled: stored?.channels.find((c) => c.name === name)?.enabled ?? true,
      })),
    };
  });
}

export function channelEnabled(
  preferences: readonly TopicPreference[],
  topic: NotificationTopic,
  channel: NotificationChannel,
): boolean {
  return completePreferences(preferences)
    .find((p) => p.topic === topic)!
    .channels.find((c) => c.name === channel)!.enabled;
}

/** Saved preferences with the given ones applied: a topic or channel not given keeps its setting. */
export function mergePreferences(saved: readonly TopicPreference[], given: readonly TopicPreference[]): TopicPreference[] {
  return completePreferences(saved).map((preference) => {
    const change = given.find((g) => g.topic === preference.topic);
    if (!change) return preference;
    return {
      topic: preference.topic,
      channels: preference.channels.map((channel) => change.channels.find((g) => g.name === channel.name) ?? channel),
    };
  });
}

export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const UNREAD_ONLY_INBOX = 'unreadOnly applies to the inbox only';
export const CHANGE_REQUIRED = 'Give readAt or archivedAt';
export const SCOPE_REQUIRED = `scope must be ${NOTIFICATION_SCOPES.join(' or ')}`;
export const invalidTimestamp = (field: string) => `${field} must be an ISO 8601 date-time or null`;
