// Breadcrumbs from the route: one crumb per path segment, named after the navigation's entries where one
// matches, else after the segment itself.
import { LOG_SOURCE_ROUTES, SECTION_PATHS, SUPPORT_PATH, UNBUILT_PATHS } from '../routes';
import { SEARCH_ROUTES } from '../routes';
import { NAVIGATION, SETTINGS_MENU, navigationLinks } from './navigation';

export interface Crumb {
  readonly label: string;
  /** Where the crumb leads; none for a section that is not a page of its own. */
  readonly path?: string;
}

/** Sections of the route map that group pages without being one. */
const SECTIONS: Readonly<Record<string, string>> = {
  [SECTION_PATHS.investigate]: 'Investigate',
  [SECTION_PATHS.configure]: 'Configure',
  [SECTION_PATHS.build]: 'Build',
  [SECTION_PATHS.settings]: 'Settings',
  [SECTION_PATHS.settingsApi]: 'API',
};

const PAGES: Readonly<Record<string, string>> = {
  [SUPPORT_PATH]: 'Support',
  /** Pages whose segment is a slug, not a word: the crumb is the page's title. */
  [LOG_SOURCE_ROUTES.add]: 'Add New Sources',
  [UNBUILT_PATHS.notifications]: 'Notifications',
  [SEARCH_ROUTES.indicatorSearch]: 'Indicator Search',
  [SEARCH_ROUTES.alertEventsSearch]: 'Search',
  [SEARCH_ROUTES.keyValueSearch]: 'Search',
  [SEARCH_ROUTES.logTypeSearch]: 'Search',
  [SEARCH_ROUTES.dashboardWidgetSearch]: 'Search',
  ...Object.fromEntries([...navigationLinks(NAVIGATION), ...SETTINGS_MENU].map((link) => [link.path, link.label])),
};

const WORDS: Readonly<Record<string, string>> = {
  new: 'New',
  edit: 'Edit',
  schemas: 'Schemas',
  rules: 'Rules',
  policies: 'Policies',
  'correlation-rules': 'Correlation Rules',
  'scheduled-queries': 'Scheduled Queries',
};

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The crumbs of a path: "/configure/log-sources/abc/edit/" gives Configure › Log Sources › abc › Edit, or the
 * name a page gave its crumb (`named`, by path) in place of "abc".
 */
export function breadcrumbsFor(pathname: string, named: ReadonlyMap<string, string> = new Map()): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  return segments.map((segment, index) => {
    const path = `/${segments.slice(0, index + 1).join('/')}/`;
    const section = SECTIONS[path];
    if (section) return { label: section };
    return { label: named.get(path) ?? PAGES[path] ?? WORDS[segment] ?? decoded(segment), path };
  });
}

/** More than three crumbs: the first, then the hidden ones behind an overflow toggle, then the last two. */
export type CollapsedCrumbs =
  | { readonly collapsed: false; readonly crumbs: readonly Crumb[] }
  | { readonly collapsed: true; readonly first: Crumb; readonly hidden: readonly Crumb[]; readonly last: readonly Crumb[] };

export const MAX_VISIBLE_CRUMBS = 3;

export function collapseCrumbs(crumbs: readonly Crumb[]): CollapsedCrumbs {
  if (crumbs.length <= MAX_VISIBLE_CRUMBS) return { collapsed: false, crumbs };
  return { collapsed: true, first: crumbs[0], hidden: crumbs.slice(1, -2), last: crumbs.slice(-2) };
}
