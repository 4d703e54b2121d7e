// Constants of the application shell, from the specification's business constants (§9).

/** Height of the top bar, in pixels. */
export const TOP_BAR_HEIGHT = 65;

/** Log Out reacts once per burst of clicks: it runs this long after the last one. */
export const LOG_OUT_DEBOUNCE_MS = 350;

/** How long a snackbar stays up by default. */
export const SNACKBAR_DEFAULT_MS = 6000;

/** Layer of snackbars (dropdown 1000, modal 1100, snackbar 1200, tooltip 1300). */
export const SNACKBAR_Z_INDEX = 1200;

/** The path of the sign-in screen. */
export const SIGN_IN_PATH = '/sign-in/';

/** Where a signed-in user lands when there is nowhere to go back to. */
export const HOME_PATH = '/';
