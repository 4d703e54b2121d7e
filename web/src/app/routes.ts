// Every path of the app, one group per area: the patterns the router matches and the builders that links,
// redirects and the navigation use. Nothing else writes a path. A builder encodes what it is given, so an id
// or a name holding '/', '?', '#' or '%' still leads to its own page.
import { generatePath } from 'react-router-dom';

/** A page's path with its parameters filled in and encoded; every page's path ends with a slash. */
function fill(pattern: string, params: Readonly<Record<string, string>>): string {
  return `${generatePath(pattern, params)}/`;
}

/** Where a signed-in user lands when there is nowhere to go back to. */
export const HOME_PATH = '/';

/** The anonymous screens: signing in and recovering a password. */
export const SIGN_IN_ROUTES = {
  signIn: '/sign-in/',
  supportSignIn: '/support-sign-in/',
  passwordForgot: '/password-forgot/',
  passwordReset: '/password-reset/',
  oauth: '/oauth/',
} as const;

/** Help: the Support page (with Send Feedback). */
export const SUPPORT_PATH = '/support/';

/** Sections of the route map that group pages without being a page of their own. */
export const SECTION_PATHS = {
  investigate: '/investigate/',
  configure: '/configure/',
  build: '/build/',
  settings: '/settings/',
  settingsApi: '/settings/api/',
} as const;

export const ALERT_ROUTES = {
  list: '/alerts-and-errors/',
  details: '/alerts-and-errors/:id/',
  /** The details with a section suffix: the same page. */
  section: '/alerts-and-errors/:id/:section/',
  /** Older addresses, redirected to the list and to the details. */
  shortList: '/alerts/',
  shortDetails: '/alerts/:id/',
} as const;

export const alertPath = (id: string) => fill(ALERT_ROUTES.details, { id });

/** The alerts list showing only the alerts of one detection. */
export const detectionAlertsPath = (detectionId: string) => `${ALERT_ROUTES.list}?detection=${encodeURIComponent(detectionId)}`;

/**
 * A search of an alert's events, for the search page to read: its log types, its events' time range and the
 * alert id (`p_alert_id`), e.g. /investigate/search/?logType=AWS.CloudTrail&from=...&to=...&p_alert_id=...
 */
export const alertEventsSearchPath = (alert: {
  readonly id: string;
  readonly logTypes: readonly string[];
  readonly firstEventAt: string;
  readonly lastEventAt: string;
}) => {
  const query = new URLSearchParams();
  for (const logType of alert.logTypes) query.append('logType', logType);
  query.set('from', alert.firstEventAt);
  query.set('to', alert.lastEventAt);
  query.set('p_alert_id', alert.id);
  return `/investigate/search/?${query.toString()}`;
};

export const LOG_SOURCE_ROUTES = {
  list: '/configure/log-sources/',
  add: '/configure/log-sources/add-new-source/',
  details: '/configure/log-sources/:id/',
  edit: '/configure/log-sources/:id/edit/',
  /** The details with the schema viewer sidesheet open on the source's log types. */
  schemas: '/configure/log-sources/:id/schemas/',
} as const;

export const logSourcePath = (id: string) => fill(LOG_SOURCE_ROUTES.details, { id });
export const editLogSourcePath = (id: string) => fill(LOG_SOURCE_ROUTES.edit, { id });
export const logSourceSchemasPath = (id: string) => fill(LOG_SOURCE_ROUTES.schemas, { id });

export const SCHEMA_ROUTES = {
  list: '/configure/schemas/',
  new: '/configure/schemas/new/',
  details: '/configure/schemas/:name/',
  edit: '/configure/schemas/:name/edit/',
} as const;

export const schemaPath = (name: string) => fill(SCHEMA_ROUTES.details, { name });
export const editSchemaPath = (name: string) => fill(SCHEMA_ROUTES.edit, { name });

export const DESTINATION_ROUTES = {
  list: '/configure/destinations/',
  /** The type chooser, or with `?type=` that type's form. */
  new: '/configure/destinations/new/',
  edit: '/configure/destinations/:id/edit/',
} as const;

/** The destinations list with one destination selected (its details open beside the list). */
export const destinationPath = (id: string) => `${DESTINATION_ROUTES.list}?id=${encodeURIComponent(id)}`;
export const editDestinationPath = (id: string) => fill(DESTINATION_ROUTES.edit, { id });
export const newDestinationPath = (type?: string) =>
  type ? `${DESTINATION_ROUTES.new}?type=${encodeURIComponent(type)}` : DESTINATION_ROUTES.new;

export const LOOKUP_TABLE_ROUTES = {
  list: '/configure/lookup-tables/',
  new: '/configure/lookup-tables/new/',
  edit: '/configure/lookup-tables/:id/edit/',
} as const;

export const editLookupTablePath = (id: string) => fill(LOOKUP_TABLE_ROUTES.edit, { id });

export const ENRICHMENT_PROVIDER_ROUTES = {
  list: '/configure/enrichment-providers/',
  /** With `?provider=` (IPINFO_LOCATION, TOR_EXIT_NODES, ...): that provider's setup form. */
  new: '/configure/enrichment-providers/new/',
  details: '/configure/enrichment-providers/:id/',
  edit: '/configure/enrichment-providers/:id/edit/',
} as const;

export const enrichmentProviderPath = (id: string) => fill(ENRICHMENT_PROVIDER_ROUTES.details, { id });
export const editEnrichmentProviderPath = (id: string) => fill(ENRICHMENT_PROVIDER_ROUTES.edit, { id });
export const newEnrichmentProviderPath = (provider: string) =>
  `${ENRICHMENT_PROVIDER_ROUTES.new}?${new URLSearchParams({ provider }).toString()}`;

export const SETTINGS_ROUTES = {
  general: '/settings/general/',
  users: '/settings/users/',
  roles: '/settings/roles/',
  newRole: '/settings/roles/new/',
  role: '/settings/roles/:id/',
  editRole: '/settings/roles/:id/edit/',
  apiTokens: '/settings/api/tokens/',
  apiPlayground: '/settings/api/playground/',
} as const;

export const editRolePath = (id: string) => fill(SETTINGS_ROUTES.editRole, { id });

/** The detection editor's pages: new (with its optional query parameters), a rule's or policy's page and its editor. */
export const DETECTION_EDITOR_ROUTES = {
  new: '/build/detections/new/',
  /** The rules/ and policies/ sections lead to the list. */
  rules: '/build/detections/rules/',
  policies: '/build/detections/policies/',
  rule: '/build/detections/rules/:id/',
  editRule: '/build/detections/rules/:id/edit/',
  policy: '/build/detections/policies/:id/',
  editPolicy: '/build/detections/policies/:id/edit/',
} as const;

/** The optional query parameters of the new-detection page (the kind, a MITRE mapping, a detection to clone). */
export type NewDetectionParams = Partial<
  Record<
    | 'type'
    | 'isSimpleDetection'
    | 'mitreTactic'
    | 'mitreTechnique'
    | 'relatedDetectionId'
    | 'relationOperation'
    | 'sessionId'
    | 'correlationRuleRefs'
    | 'version',
    string
  >
>;

export function newDetectionPath(params: NewDetectionParams = {}): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const text = query.toString();
  return text ? `${DETECTION_EDITOR_ROUTES.new}?${text}` : DETECTION_EDITOR_ROUTES.new;
}

/** The correlation-rule editor's pages (a new one, a rule's read-only page and its editor; `section` picks the tab). */
export const CORRELATION_RULE_ROUTES = {
  list: '/build/detections/correlation-rules/',
  new: '/build/detections/correlation-rules/new/',
  details: '/build/detections/correlation-rules/:id/',
  edit: '/build/detections/correlation-rules/:id/edit/',
} as const;

export const correlationRulePath = (id: string) => fill(CORRELATION_RULE_ROUTES.details, { id });
export const editCorrelationRulePath = (id: string) => fill(CORRELATION_RULE_ROUTES.edit, { id });
/** A correlation rule's page replaying an alert it raised, step by step. */
export const correlationAlertReplayPath = (id: string, alertId: string) =>
  `${correlationRulePath(id)}?${new URLSearchParams({ alert: alertId }).toString()}`;
const isCorrelation = (type?: string | null) => type === 'CORRELATION_RULE' || type === 'correlation_rule';

/** Scheduled queries (the queries scheduled rules run on): new, a query's page and its editor. */
export const SCHEDULED_QUERY_ROUTES = {
  list: '/build/detections/scheduled-queries/',
  new: '/build/detections/scheduled-queries/new/',
  details: '/build/detections/scheduled-queries/:id/',
  edit: '/build/detections/scheduled-queries/:id/edit/',
} as const;
export const scheduledQueryPath = (id: string) => fill(SCHEDULED_QUERY_ROUTES.details, { id });
export const editScheduledQueryPath = (id: string) => fill(SCHEDULED_QUERY_ROUTES.edit, { id });
const isScheduledQuery = (type?: string | null) => type === 'SCHEDULED_QUERY' || type === 'scheduled_query';

/** A detection's page: policies under policies/, correlation rules under correlation-rules/, every other rule-like type under rules/. */
export const detectionPath = (id: string, type?: string | null) =>
  isCorrelation(type)
    ? correlationRulePath(id)
    : isScheduledQuery(type)
      ? scheduledQueryPath(id)
      : fill(type === 'POLICY' || type === 'policy' ? DETECTION_EDITOR_ROUTES.policy : DETECTION_EDITOR_ROUTES.rule, { id });
export const editDetectionPath = (id: string, type?: string | null) =>
  isCorrelation(type)
    ? editCorrelationRulePath(id)
    : isScheduledQuery(type)
      ? editScheduledQueryPath(id)
      : fill(type === 'POLICY' || type === 'policy' ? DETECTION_EDITOR_ROUTES.editPolicy : DETECTION_EDITOR_ROUTES.editRule, {
          id,
        });

/** The detections list (query: page, sortBy, sortDir, pageSize and the filters). */
export const DETECTION_ROUTES = {
  list: '/build/detections/',
} as const;

/** Global helpers (titles: Helpers, New Global Helper, Edit Global Helper). */
export const HELPER_ROUTES = {
  list: '/build/helpers/',
  new: '/build/helpers/new/',
  edit: '/build/helpers/:id/edit/',
} as const;

export const editHelperPath = (id: string) => fill(HELPER_ROUTES.edit, { id });

export const DATA_MODEL_ROUTES = {
  list: '/build/data-models/',
  new: '/build/data-models/new/',
  details: '/build/data-models/:id/',
  edit: '/build/data-models/:id/edit/',
} as const;

export const dataModelPath = (id: string) => fill(DATA_MODEL_ROUTES.details, { id });
export const editDataModelPath = (id: string) => fill(DATA_MODEL_ROUTES.edit, { id });

export const PACK_ROUTES = {
  list: '/build/packs/',
  details: '/build/packs/:id/',
} as const;

export const packPath = (id: string) => fill(PACK_ROUTES.details, { id });

/** The places of areas the navigation names before their pages exist; each area's routes join the groups above as it lands. */
/** Investigate: the search page and its views, saved searches, history, the data explorer, indicators. */
export const SEARCH_ROUTES = {
  search: '/investigate/search/',
  /** Views of the search page with inputs preset from the query (logType, from, to, p_alert_id, key, value). */
  alertEventsSearch: '/investigate/alert-events-search/',
  keyValueSearch: '/investigate/key-value-search/',
  logTypeSearch: '/investigate/log-type-search/',
  /** A search opened from a dashboard widget: the widget's query, log types and range, and the way back. */
  dashboardWidgetSearch: '/investigate/dashboard-widget-search/',
  dataExplorer: '/investigate/data-explorer/',
  savedSearches: '/investigate/saved-searches/',
  indicatorSearch: '/investigate/indicator-search/',
  searchHistory: '/investigate/search-history/',
} as const;

/** The search page with its URL state (see features/search/searchState.ts: mode, query, range, logType, ...). */
export const searchPath = (query: URLSearchParams | Readonly<Record<string, string>> = {}) => {
  const text = new URLSearchParams(query as Record<string, string>).toString();
  return text ? `${SEARCH_ROUTES.search}?${text}` : SEARCH_ROUTES.search;
};

/**
 * The search behind a dashboard widget (dashboard-widget-search/): the widget's title and dashboard page, its
 * query in SQL or PantherFlow (or builder log types), and its time range (a preset or from/to); the page
 * runs it when opened.
 */
export const dashboardWidgetSearchPath = (widget: {
  title: string;
  dashboardPath?: string;
  mode?: 'SQL' | 'PANTHERFLOW' | 'BUILDER';
  query?: string;
  logTypes?: readonly string[];
  range?: { preset: string } | { from: string; to: string };
}) => {
  const query = new URLSearchParams({ widget: widget.title });
  if (widget.dashboardPath) query.set('dashboard', widget.dashboardPath);
  if (widget.mode === 'SQL') query.set('mode', 'sql');
  if (widget.mode === 'PANTHERFLOW') query.set('mode', 'pantherflow');
  if (widget.query) query.set('query', widget.query);
  for (const logType of widget.logTypes ?? []) query.append('logType', logType);
  if (widget.range && 'preset' in widget.range) query.set('range', widget.range.preset);
  else if (widget.range) {
    query.set('from', widget.range.from);
    query.set('to', widget.range.to);
  }
  return `${SEARCH_ROUTES.dashboardWidgetSearch}?${query.toString()}`;
};

/** The search page opened on one search (from history: its results and statistics). */
export const searchRunPath = (searchId: string) => searchPath({ search: searchId });

/** The search page loaded from a saved search. */
export const savedSearchOpenPath = (savedSearchId: string) => searchPath({ saved: savedSearchId });

/** The indicator search of a value (an IP, domain, hash, email or ARN). */
export const indicatorSearchPath = (indicator: string) =>
  `${SEARCH_ROUTES.indicatorSearch}?${new URLSearchParams({ indicator }).toString()}`;

export const UNBUILT_PATHS = {
  dashboard: '/dashboard/',
  notifications: '/notifications/',
  search: '/investigate/search/',
  dataExplorer: '/investigate/data-explorer/',
  savedSearches: '/investigate/saved-searches/',
  searchHistory: '/investigate/search-history/',
  cloudResources: '/investigate/resources/',
  cloudAccounts: '/configure/cloud-accounts/',
  lookupTables: '/configure/lookup-tables/',
  enrichmentProviders: '/configure/enrichment-providers/',
} as const;
