// The side navigation as data: every entry the specification names, with the permissions that show it (any
// of them). An entry shows only once its area exists in the product: when your area's route lands in
// AppRoutes.tsx, set `built: true` on its line below.
import type { ComponentType } from 'react';
import { GENERAL_SETTINGS_READERS, hasPermissions, type Permission } from '../../../../core/permissions';
import { AlertIcon, ConfigureIcon, DashboardIcon, DetectionIcon, SearchIcon } from '../../components/icons';
import { ALERT_ROUTES, DESTINATION_ROUTES, LOG_SOURCE_ROUTES, SCHEMA_ROUTES, SETTINGS_ROUTES, UNBUILT_PATHS } from '../routes';
import { DATA_MODEL_ROUTES, DETECTION_ROUTES, HELPER_ROUTES, PACK_ROUTES } from '../routes';
import { SEARCH_ROUTES } from '../routes';
import { ENRICHMENT_PROVIDER_ROUTES, LOOKUP_TABLE_ROUTES } from '../routes';

export interface NavigationLink {
  readonly label: string;
  /** Where the entry leads; it is the active entry while the current path starts with it. */
  readonly path: string;
  /** Any one of these shows the entry. */
  readonly permissions: readonly Permission[];
  /** The area exists in the product (its route is in AppRoutes.tsx). */
  readonly built: boolean;
}

type NavigationIcon = ComponentType<{ readonly size?: number }>;

export interface NavigationItem extends NavigationLink {
  readonly kind: 'link';
  readonly icon: NavigationIcon;
}

export interface NavigationGroup {
  readonly kind: 'group';
  readonly label: string;
  readonly icon: NavigationIcon;
  /** Any one of these shows the group (and then only if one of its links shows). */
  readonly permissions: readonly Permission[];
  readonly links: readonly NavigationLink[];
}

export type NavigationEntry = NavigationItem | NavigationGroup;

const ALERT: Permission[] = ['AlertRead', 'AlertModify'];
const DETECTION: Permission[] = ['PolicyRead', 'PolicyModify', 'RuleRead', 'RuleModify'];
const SEARCH: Permission[] = ['DataAnalyticsRead'];
const RESOURCE: Permission[] = ['ResourceRead', 'ResourceModify'];
const LOG_SOURCE: Permission[] = ['LogSourceRead', 'LogSourceModify'];
const CLOUD_SOURCE: Permission[] = ['CloudsecSourceRead', 'CloudsecSourceModify'];
const DESTINATION: Permission[] = ['DestinationRead', 'DestinationModify'];
const LOOKUP: Permission[] = ['LookupRead', 'LookupModify'];
/** The dashboard home is chosen among these; any one of them gives the user a dashboard. */
const DASHBOARD: Permission[] = ['SummaryRead', 'RuleRead', 'PolicyRead', 'RuleModify', 'PolicyModify', 'AlertRead'];

export const NAVIGATION: readonly NavigationEntry[] = [
  { kind: 'link', label: 'Dashboards', icon: DashboardIcon, path: UNBUILT_PATHS.dashboard, permissions: DASHBOARD, built: false },
  { kind: 'link', label: 'Alerts', icon: AlertIcon, path: ALERT_ROUTES.list, permissions: ALERT, built: true },
  {
    kind: 'group',
    label: 'Investigate',
    icon: SearchIcon,
    permissions: SEARCH,
    links: [
      { label: 'Search', path: SEARCH_ROUTES.search, permissions: SEARCH, built: true },
      { label: 'Data Explorer', path: SEARCH_ROUTES.dataExplorer, permissions: SEARCH, built: true },
      { label: 'Saved Searches', path: SEARCH_ROUTES.savedSearches, permissions: SEARCH, built: true },
      { label: 'Search History', path: SEARCH_ROUTES.searchHistory, permissions: SEARCH, built: true },
      { label: 'Cloud Resources', path: UNBUILT_PATHS.cloudResources, permissions: RESOURCE, built: false },
    ],
  },
  {
    kind: 'group',
    label: 'Build',
    icon: DetectionIcon,
    permissions: DETECTION,
    links: [
      { label: 'Detections', path: DETECTION_ROUTES.list, permissions: DETECTION, built: true },
      { label: 'Helpers', path: HELPER_ROUTES.list, permissions: DETECTION, built: true },
      { label: 'Data Models', path: DATA_MODEL_ROUTES.list, permissions: DETECTION, built: true },
      { label: 'Packs', path: PACK_ROUTES.list, permissions: DETECTION, built: true },
    ],
  },
  {
    kind: 'group',
    label: 'Configure',
    icon: ConfigureIcon,
    permissions: [...CLOUD_SOURCE, ...DESTINATION, ...LOG_SOURCE, ...LOOKUP, ...RESOURCE],
    links: [
      { label: 'Log Sources', path: LOG_SOURCE_ROUTES.list, permissions: LOG_SOURCE, built: true },
      { label: 'Cloud Accounts', path: UNBUILT_PATHS.cloudAccounts, permissions: CLOUD_SOURCE, built: false },
      { label: 'Alert Destinations', path: DESTINATION_ROUTES.list, permissions: DESTINATION, built: true },
      { label: 'Schemas', path: SCHEMA_ROUTES.list, permissions: LOG_SOURCE, built: true },
      { label: 'Lookup Tables', path: LOOKUP_TABLE_ROUTES.list, permissions: LOOKUP, built: true },
      { label: 'Enrichment Providers', path: ENRICHMENT_PROVIDER_ROUTES.list, permissions: LOOKUP, built: true },
    ],
  },
];

function shows(link: NavigationLink, held: readonly Permission[]): boolean {
  return link.built && hasPermissions(held, link.permissions);
}

/** The entries a user holding `held` sees: built areas they may use; a group only with one of its links. */
export function visibleNavigation(
  held: readonly Permission[],
  entries: readonly NavigationEntry[] = NAVIGATION,
): NavigationEntry[] {
  return entries.flatMap((entry): NavigationEntry[] => {
    if (entry.kind === 'link') return shows(entry, held) ? [entry] : [];
    if (!hasPermissions(held, entry.permissions)) return [];
    const links = entry.links.filter((link) => shows(link, held));
    return links.length > 0 ? [{ ...entry, links }] : [];
  });
}

/** Every link of the entries, groups opened up. */
export function navigationLinks(entries: readonly NavigationEntry[]): NavigationLink[] {
  return entries.flatMap((entry) => (entry.kind === 'link' ? [entry] : entry.links));
}

function withTrailingSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/** The path of the active link: the longest link path the current path starts with, if any. */
export function activeLinkPath(links: readonly Pick<NavigationLink, 'path'>[], pathname: string): string | undefined {
  const current = withTrailingSlash(pathname);
  return links
    .map((link) => link.path)
    .filter((path) => current.startsWith(withTrailingSlash(path)))
    .sort((a, b) => b.length - a.length)[0];
}

/** The permissions that open each settings page (any of them): its menu entry and its route guard share them. */
export const SETTINGS_PERMISSIONS = {
  general: GENERAL_SETTINGS_READERS,
  users: ['UserRead', 'UserModify'],
  apiTokens: ['OrganizationApiTokenRead', 'OrganizationApiTokenModify'],
} as const satisfies Record<string, readonly Permission[]>;

/** The settings menu of the top bar, each entry by its permissions (any of them) once its page exists. */
export const SETTINGS_MENU: readonly NavigationLink[] = [
  { label: 'General', path: SETTINGS_ROUTES.general, permissions: SETTINGS_PERMISSIONS.general, built: true },
  { label: 'Users', path: SETTINGS_ROUTES.users, permissions: SETTINGS_PERMISSIONS.users, built: true },
  { label: 'User Roles', path: SETTINGS_ROUTES.roles, permissions: SETTINGS_PERMISSIONS.users, built: true },
  { label: 'API Tokens', path: SETTINGS_ROUTES.apiTokens, permissions: SETTINGS_PERMISSIONS.apiTokens, built: false },
  { label: 'API Playground', path: SETTINGS_ROUTES.apiPlayground, permissions: SETTINGS_PERMISSIONS.apiTokens, built: false },
];

/** The settings entries a user holding `held` sees; the menu itself shows only when there is one. */
export function visibleSettings(
  held: readonly Permission[],
  entries: readonly NavigationLink[] = SETTINGS_MENU,
): NavigationLink[] {
  return entries.filter((entry) => shows(entry, held));
}
