// A notification as the API answers it: the alert it is about under metadata.
import type { Notification } from '../../lib/notifications';
import type * as Api from '../../lib/graphql-types';

export const toApiNotification = (n: Notification): Api.Notification => ({
  id: n.id,
  userId: n.userId,
  topic: n.topic,
  level: n.level,
  title: n.title,
  message: n.message,
  createdAt: n.createdAt,
  readAt: n.readAt,
  archivedAt: n.archivedAt,
  metadata: { alertId: n.alertId },
});
