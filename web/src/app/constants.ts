// Constants of the application shell: its sizes, timings and layers, in one place so the shell stays consistent.

/** Height of the top bar, in pixels. */
export const TOP_BAR_HEIGHT = 65;

/** Log Out reacts once per burst of clicks: it runs this long after the last one. */
export const LOG_OUT_DEBOUNCE_MS = 350;

/** How long a snackbar stays up by default. */
export const SNACKBAR_DEFAULT_MS = 6000;

/**
 * Where snackbars show: the bottom right, clear of the top bar's menus and of the page header's actions (Edit,
 * Delete, New ...) that sit at the top right of every page.
 */
export const SNACKBAR_POSITION = 'bottom-right';

/** Layer of snackbars (dropdown 1000, modal 1100, snackbar 1200, tooltip 1300). */
export const SNACKBAR_Z_INDEX = 1200;

/** Width of the side navigation, expanded and collapsed, in pixels. */
export const SIDE_NAVIGATION_EXPANDED_WIDTH = 248;
export const SIDE_NAVIGATION_COLLAPSED_WIDTH = 68;

/** How long the side navigation takes to collapse or expand. */
export const SIDE_NAVIGATION_ANIMATION_MS = 250;

/** Local-storage key of the side navigation's expanded/collapsed choice. */
export const SIDE_NAVIGATION_STORAGE_KEY = 'caracal.side-navigation.expanded';

/** Width of the Profile Settings modal, in pixels. */
export const PROFILE_MODAL_WIDTH = 450;

/** The project's home: its documentation, issues and discussions live there. */
export const PROJECT_URL = 'https://github.com/caracal-siem/caracal';

/** The product documentation (the repository's docs/ folder). */
export const DOCUMENTATION_URL = `${PROJECT_URL}/tree/main/docs`;
