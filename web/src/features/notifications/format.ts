import { SNACKBAR_TEXT_MAX, UNREAD_BADGE_MAX } from './constants';

/** The unread badge's text: the count, or "99+" above 99. */
export function unreadBadgeLabel(count: number): string {
  return count > UNREAD_BADGE_MAX ? `${UNREAD_BADGE_MAX}+` : String(count);
}

/** Text cut at `max` characters (whole code points), with an ellipsis when cut. */
export function cutText(text: string, max = SNACKBAR_TEXT_MAX): string {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max).join('')}…` : text;
}
