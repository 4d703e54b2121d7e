// The one permission map: what each GraphQL query and mutation requires. The api function's guard enforces
// it for every request; the web app uses the same map to hide what a user may not use. A test walks every
// root field of graphql/*.graphql and proves it has an entry here and that the server enforces it.
import { hasPermissions } from './check';
import type { Permission } from './permissions';

export type OperationAccess =
  /** Any signed-in, active user (for example reading one's own profile). */
  | { readonly signedIn: true }
  /** Any one of the permissions. */
  | { readonly anyOf: readonly Permission[] }
  /** Every one of the permissions. */
  | { readonly allOf: readonly Permission[] };

export const SIGNED_IN: OperationAccess = { signedIn: true };
export const anyOf = (...permissions: Permission[]): OperationAccess => ({ anyOf: permissions });
export const allOf = (...permissions: Permission[]): OperationAccess => ({ allOf: permissions });

/**
 * Who reads the General settings: its own permissions, and rule and policy authors, to whom the settings menu
 * shows General (the web app's menu entry and page guard use this list too).
 */
export const GENERAL_SETTINGS_READERS: readonly Permission[] = [
  'GeneralSettingsRead',
  'GeneralSettingsModify',
  'PolicyRead',
  'PolicyModify',
  'RuleRead',
  'RuleModify',
];

/** Keyed `Query.<field>` / `Mutation.<field>`. Keep entries grouped by area, in schema order. */
export const OPERATION_ACCESS: Readonly<Record<string, OperationAccess>> = {
  // Shell
  'Query.me': SIGNED_IN,
  'Query.appConfig': SIGNED_IN,

  // Users and roles (graphql/users.graphql)
  'Query.users': anyOf('UserRead'),
  'Query.userById': anyOf('UserRead'),
  'Query.roles': anyOf('UserRead'),
  'Query.roleById': anyOf('UserRead'),
  'Mutation.inviteUser': anyOf('UserModify'),
  'Mutation.updateUser': anyOf('UserModify'),
  'Mutation.updateProfile': SIGNED_IN,
  'Mutation.signOutEverywhere': SIGNED_IN,
  'Mutation.deactivateUser': anyOf('UserModify'),
  'Mutation.reactivateUser': anyOf('UserModify'),
  'Mutation.deleteUser': anyOf('UserModify'),
  'Mutation.createRole': anyOf('UserModify'),
  'Mutation.updateRole': anyOf('UserModify'),
  'Mutation.deleteRole': anyOf('UserModify'),

  // Notifications (graphql/notifications.graphql): each user's own notifications only
  'Query.notifications': SIGNED_IN,
  'Query.unreadNotificationCount': SIGNED_IN,
  'Query.notificationCounts': SIGNED_IN,
  'Query.notificationPreferences': SIGNED_IN,
  'Mutation.putNotificationPreferences': SIGNED_IN,
  'Mutation.updateNotification': SIGNED_IN,
  'Mutation.updateUserNotifications': SIGNED_IN,

  // General settings (graphql/settings.graphql)
  'Query.generalSettings': anyOf(...GENERAL_SETTINGS_READERS),
  'Mutation.updateGeneralSettings': anyOf('GeneralSettingsModify'),

  // Feedback (graphql/feedback.graphql)
  'Mutation.sendUserFeedback': SIGNED_IN,

  // Log sources (graphql/log-sources.graphql)
  'Query.logSources': anyOf('LogSourceRead', 'LogSourceModify'),
  'Query.logSource': anyOf('LogSourceRead', 'LogSourceModify'),
  'Query.viewBucketData': anyOf('LogSourceRawDataRead'),
  'Query.sourceHealth': anyOf('LogSourceRead', 'LogSourceModify'),
  'Query.listAvailableLogTypes': anyOf('LogSourceRead', 'LogSourceModify', 'RuleRead', 'RuleModify', 'LookupModify'),
  'Mutation.createS3LogSource': anyOf('LogSourceModify'),
  'Mutation.updateS3LogSource': anyOf('LogSourceModify'),
  'Mutation.createSqsLogSource': anyOf('LogSourceModify'),
  'Mutation.updateSqsLogSource': anyOf('LogSourceModify'),
  'Mutation.createHttpLogSource': anyOf('LogSourceModify'),
  'Mutation.updateHttpLogSource': anyOf('LogSourceModify'),
  'Mutation.deleteLogSource': anyOf('LogSourceModify'),
  'Mutation.setLogStreamType': anyOf('LogSourceModify'),

  // Pipeline (graphql/pipeline.graphql)
  'Query.classificationFailures': anyOf('LogSourceRead', 'LogSourceModify'),
  'Query.sourceProcessingErrors': anyOf('LogSourceRead', 'LogSourceModify'),
  'Query.unmatchedObjects': anyOf('LogSourceRead', 'LogSourceModify'),

  // Detections (graphql/detections.graphql): rule-like items need Rule*, policies Policy* (checked per item)
  'Query.detections': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Query.detection': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Query.detectionVersion': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  // Filter fields (graphql/filters.graphql): the fields of log types' schemas, for simple detections and inline filters
  'Query.filterFields': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Query.detectionVersions': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  // Scheduled detections' runs (graphql/runs.graphql)
  'Query.detectionRuns': anyOf('RuleRead', 'RuleModify'),
  'Mutation.createDetection': anyOf('RuleModify', 'PolicyModify'),
  'Mutation.updateDetection': anyOf('RuleModify', 'PolicyModify'),
  'Mutation.setDetectionEnabled': anyOf('RuleModify', 'PolicyModify'),
  'Mutation.deleteDetection': anyOf('RuleModify', 'PolicyModify'),
  // Tests run code: the given tests (with mocks) against the detection, so they need Modify, as writing it does.
  'Mutation.runDetectionTests': anyOf('RuleModify', 'PolicyModify'),
  'Mutation.restoreDetectionVersion': anyOf('RuleModify', 'PolicyModify'),
  // Running a detection over lake data runs its code, as its tests do.
  'Mutation.testDetectionAgainstData': anyOf('RuleModify', 'PolicyModify'),
  'Mutation.validateBulkUpload': anyOf('BulkUploadValidate', 'BulkUpload'),
  'Mutation.bulkUpload': anyOf('BulkUpload'),
  // The detections list, its filter options and packs: any detection reader (each item by its own kind);
  // bulk actions and a pack's switch need the Modify of each item's kind, checked per item.
  'Query.detectionList': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Query.detectionFilterOptions': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Query.detectionUsers': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Query.packs': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Query.pack': anyOf('RuleRead', 'RuleModify', 'PolicyRead', 'PolicyModify'),
  'Mutation.setDetectionsEnabled': anyOf('RuleModify', 'PolicyModify'),
  'Mutation.deleteDetections': anyOf('RuleModify', 'PolicyModify'),
  'Mutation.setPackEnabled': anyOf('RuleModify', 'PolicyModify'),

  // Alerts (graphql/alerts.graphql)
  'Query.alerts': anyOf('AlertRead', 'AlertModify'),
  'Query.alert': anyOf('AlertRead', 'AlertModify'),
  'Query.alertEvents': anyOf('AlertRead', 'AlertModify'),
  'Query.alertComments': anyOf('AlertRead', 'AlertModify'),
  'Query.alertActivity': anyOf('AlertRead', 'AlertModify'),
  'Query.alertAssignees': anyOf('AlertRead', 'AlertModify'),
  'Mutation.updateAlertStatus': anyOf('AlertModify'),
  'Mutation.updateAlertAssignee': anyOf('AlertModify'),
  'Mutation.bulkUpdateAlertStatus': anyOf('AlertModify'),
  'Mutation.bulkUpdateAlertAssignee': anyOf('AlertModify'),
  'Mutation.addAlertComment': anyOf('AlertModify'),

  // Demo (graphql/demo.graphql)
  'Mutation.generateDemoEvents': anyOf('UserModify', 'GeneralSettingsModify'),

  // Destinations (graphql/destinations.graphql)
  'Query.destinations': anyOf('DestinationRead', 'DestinationModify'),
  'Query.destination': anyOf('DestinationRead', 'DestinationModify'),
  'Mutation.createDestination': anyOf('DestinationModify'),
  'Mutation.updateDestination': anyOf('DestinationModify'),
  'Mutation.deleteDestination': anyOf('DestinationModify'),
  'Mutation.sendTestAlert': anyOf('DestinationModify'),
  'Query.alertDeliveries': anyOf('AlertRead', 'AlertModify'),
  'Mutation.retryAlertDelivery': anyOf('AlertModify'),

  // Schemas (graphql/schemas.graphql)
  'Query.schemas': anyOf('LogSourceRead', 'LogSourceModify'),
  'Query.getSchema': anyOf('LogSourceRead', 'LogSourceModify', 'LookupModify'),
  'Query.schemaRevisions': anyOf('LogSourceRead', 'LogSourceModify'),
  // A script parser is Python: trying a schema runs it, so it needs Modify, as saving it does.
  'Query.testSchema': anyOf('LogSourceModify'),
  'Query.inferSchema': anyOf('LogSourceRead', 'LogSourceModify'),
  'Mutation.createSchema': anyOf('LogSourceModify'),
  'Mutation.updateSchema': anyOf('LogSourceModify'),
  'Mutation.archiveSchema': anyOf('LogSourceModify'),
  'Mutation.unarchiveSchema': anyOf('LogSourceModify'),
  'Mutation.deleteSchema': anyOf('LogSourceModify'),

  // Search (graphql/search.graphql): running and reading searches needs DataAnalyticsRead (or Modify); saving them Modify
  'Query.search': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Query.searchResults': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Query.lakeCatalog': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Query.searchHistory': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Query.savedSearches': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Query.savedSearch': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Query.indicatorSearch': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Mutation.runSearch': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Mutation.cancelSearch': anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  'Mutation.saveSearch': anyOf('DataAnalyticsModify'),
  'Mutation.updateSavedSearch': anyOf('DataAnalyticsModify'),
  'Mutation.deleteSavedSearch': anyOf('DataAnalyticsModify'),

  // Lookup tables and enrichment providers (graphql/lookups.graphql)
  'Query.lookupTables': anyOf('LookupRead', 'LookupModify'),
  'Query.lookupTable': anyOf('LookupRead', 'LookupModify'),
  'Query.lookupTableData': anyOf('LookupRead', 'LookupModify'),
  'Query.testLookupValue': anyOf('LookupRead', 'LookupModify'),
  'Query.previewLookupUpload': anyOf('LookupModify'),
  'Mutation.createLookupUpload': anyOf('LookupModify'),
  'Mutation.createLookupTable': anyOf('LookupModify'),
  'Mutation.updateLookupTable': anyOf('LookupModify'),
  'Mutation.deleteLookupTable': anyOf('LookupModify'),
  'Mutation.refreshLookupTable': anyOf('LookupModify'),
};

/**
 * What a lookup table's data source needs beyond LookupModify (which every lookup change needs, above), of the
 * user who sets the source: a scheduled query reads the data lake as a search does; an S3 object may be another
 * log source's raw data. The lookups door checks the acting user when a table's source is set and the user who
 * set it at every refresh (core/lookups/access.ts); the form offers only what the user may choose. Files and
 * providers' URLs need nothing more.
 */
export const LOOKUP_SOURCE_ACCESS: Readonly<Record<'QUERY' | 'S3', OperationAccess>> = {
  QUERY: anyOf('DataAnalyticsRead', 'DataAnalyticsModify'),
  S3: anyOf('LogSourceRawDataRead'),
};

/** Whether permissions `held` meet a requirement of the map (a signed-in requirement is always met). */
export function meetsAccess(held: readonly Permission[] | null | undefined, access: OperationAccess): boolean {
  if ('signedIn' in access) return true;
  return 'anyOf' in access ? hasPermissions(held, access.anyOf) : hasPermissions(held, access.allOf, { all: true });
}

/** The requirement of one operation, or undefined when the map has no entry (the guard then refuses). */
export function operationAccess(typeName: string, fieldName: string): OperationAccess | undefined {
  return OPERATION_ACCESS[`${typeName}.${fieldName}`];
}
