// The notification vocabulary: topics, levels, delivery channels and the stored shapes.

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
