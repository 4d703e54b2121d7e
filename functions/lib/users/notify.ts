// Tells a user what an administrator changed about their account, through the notification centre. A
// notification that cannot be stored never undoes the change it reports.
import { createNotification } from '../notifications';

export async function notifyUser(userId: string, title: string, message: string): Promise<void> {
  try {
    await createNotification({ userId, topic: 'SYSTEM_NOTIFICATION', level: 'INFO', title, message });
  } catch (err) {
    console.warn(`Notification for ${userId} not stored: ${(err as Error).message}`);
  }
}
