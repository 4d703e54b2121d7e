// The notification centre's numbers: how often it polls, how much it reads, how long snackbars stay.
import type { NotificationTopic } from '../../lib/graphql/types';

/** The bell asks for new notifications this often, while the user is active. */
export const NOTIFICATION_POLL_MS = 60_000;
/** Without any user activity for this long, polling stops until the next activity. */
export const IDLE_TIMEOUT_MS = 300_000;
/** The poll reads this many of the newest notifications. */
export const POLL_PAGE_SIZE = 10;
/** The sidesheet's first page, then each further page. */
export const FIRST_PAGE_SIZE = 500;
export const NEXT_PAGE_SIZE = 100;

/** Lists longer than this render only the rows in view. */
export const VIRTUALIZE_ABOVE = 10;
/** Scrolling within this distance of a list's end loads its next page. */
export const LOAD_MORE_THRESHOLD_PX = 500;

/** A notification this recent when first seen shows as a snackbar. */
export const RECENT_NOTIFICATION_MS = 60_000;
export const NOTIFICATION_SNACKBAR_MS = 10_000;
/** Snackbars of one poll appear one after another, this far apart. */
export const SNACKBAR_STAGGER_MS = 500;
/** Snackbar text is cut at this many characters. */
export const SNACKBAR_TEXT_MAX = 400;
/** Ids already shown as snackbars, kept for the browser session (the newest ones, at most this many). */
export const SEEN_STORAGE_KEY = 'caracal.notifications.seen';
export const SEEN_MAX = 500;

/** Above this, the unread badge reads "99+". */
export const UNREAD_BADGE_MAX = 99;

export const TOPIC_LABELS: Readonly<Record<NotificationTopic, string>> = {
  SYSTEM_NOTIFICATION: 'System notification',
  SYSTEM_ERROR: 'System error',
  DETECTION_NOTIFICATION: 'Detection notification',
};

export const EMPTY_STATE = "You're up-to-date!";
export const LOAD_ERROR_TITLE = "Couldn't load your Notifications";
export const LOAD_ERROR_FALLBACK = 'There was an error when performing your request, please contact support';
export const IN_APP_LABEL = 'Enable in-app notifications';
