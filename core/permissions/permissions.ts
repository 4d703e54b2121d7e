// The permission model: named permissions, their titles and groups, and Modify-implies-Read.

/** Modify/Read pairs: holding `<Name>Modify` implies `<Name>Read`. */
export const PERMISSION_PAIRS = [
  'Alert',
  'CloudsecSource',
  'DataAnalytics',
  'Destination',
  'GeneralSettings',
  'LogSource',
  'Lookup',
  'OrganizationApiToken',
  'Policy',
  'Resource',
  'Rule',
  'User',
] as const;

export type PermissionPair = (typeof PERMISSION_PAIRS)[number];

export const STANDALONE_PERMISSIONS = [
  'LogSourceRawDataRead',
  'BulkUpload',
  'BulkUploadValidate',
  'SummaryRead',
  'RunPantherAI',
] as const;

export type Permission = `${PermissionPair}Read` | `${PermissionPair}Modify` | (typeof STANDALONE_PERMISSIONS)[number];

export const PERMISSIONS: readonly Permission[] = [
  ...PERMISSION_PAIRS.flatMap((pair) => [`${pair}Read`, `${pair}Modify`] as Permission[]),
  ...STANDALONE_PERMISSIONS,
];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

export const PERMISSION_GROUPS = [
  'User Management',
  'Alerts',
  'Detections',
  'Analysis',
  'Data',
  'Integrations',
  'Enrichment',
  'Configuration',
] as const;

export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];

export interface PermissionInfo {
  readonly title: string;
  readonly description: string;
  readonly group: PermissionGroup;
}

/** Titles, descriptions and groups, in the order role editors list them (each View beside its Manage). */
export const PERMISSION_INFO: Readonly<Record<Permission, PermissionInfo>> = {
  UserRead: { title: 'View Users', description: 'See users and their roles.', group: 'User Management' },
  UserModify: {
    title: 'Manage Users',
    description: 'Invite, edit, deactivate and delete users, and manage roles. Grants admin-level access.',
    group: 'User Management',
  },
  OrganizationApiTokenRead: {
    title: 'View API Tokens',
    description: 'See API token metadata only, never the token values.',
    group: 'User Management',
  },
  OrganizationApiTokenModify: {
    title: 'Manage API Tokens',
    description: 'Create, rotate and delete API tokens.',
    group: 'User Management',
  },
  AlertRead: { title: 'View Alerts', description: 'See alerts and their events.', group: 'Alerts' },
  AlertModify: { title: 'Manage Alerts', description: 'Triage alerts: status, assignee and comments.', group: 'Alerts' },
  RuleRead: { title: 'View Rules', description: 'See rules, scheduled rules and correlation rules.', group: 'Detections' },
  RuleModify: {
    title: 'Manage Rules',
    description: 'Create, edit, enable, disable and delete rules, helpers and data models.',
    group: 'Detections',
  },
  PolicyRead: { title: 'View Policies', description: 'See cloud policies.', group: 'Detections' },
  PolicyModify: { title: 'Manage Policies', description: 'Create, edit and delete cloud policies.', group: 'Detections' },
  BulkUpload: { title: 'Bulk Upload', description: 'Upload detections in bulk from a zip file.', group: 'Detections' },
  BulkUploadValidate: {
    title: 'Validate Bulk Upload',
    description: 'Check a bulk upload without saving it.',
    group: 'Detections',
  },
  DataAnalyticsRead: { title: 'Run Log Searches', description: 'Search the data lake.', group: 'Analysis' },
  DataAnalyticsModify: {
    title: 'Manage Saved Searches',
    description: 'Create, edit and delete saved and scheduled searches.',
    group: 'Analysis',
  },
  ResourceRead: { title: 'View Cloud Resources', description: 'See scanned cloud resources.', group: 'Analysis' },
  ResourceModify: { title: 'Manage Cloud Resources', description: 'Change cloud resource settings.', group: 'Analysis' },
  SummaryRead: { title: 'View Overview', description: 'See the overview dashboard.', group: 'Analysis' },
  RunPantherAI: { title: 'Run AI Assistant', description: 'Ask the AI assistant.', group: 'Analysis' },
  LogSourceRead: { title: 'View Log Sources', description: 'See log sources and schemas.', group: 'Data' },
  LogSourceModify: {
    title: 'Manage Log Sources',
    description: 'Create, edit and delete log sources and schemas.',
    group: 'Data',
  },
  LogSourceRawDataRead: {
    title: 'View Raw Log Data',
    description: 'Preview the raw objects of a log source.',
    group: 'Data',
  },
  DestinationRead: { title: 'View Destinations', description: 'See alert destinations.', group: 'Integrations' },
  DestinationModify: {
    title: 'Manage Destinations',
    description: 'Create, edit and delete alert destinations.',
    group: 'Integrations',
  },
  CloudsecSourceRead: { title: 'View Cloud Accounts', description: 'See connected cloud accounts.', group: 'Integrations' },
  CloudsecSourceModify: {
    title: 'Manage Cloud Accounts',
    description: 'Connect, edit and remove cloud accounts.',
    group: 'Integrations',
  },
  LookupRead: {
    title: 'View Lookup Tables',
    description: 'See lookup tables and enrichment providers.',
    group: 'Enrichment',
  },
  LookupModify: {
    title: 'Manage Lookup Tables',
    description: 'Create, edit and delete lookup tables and enrichment providers.',
    group: 'Enrichment',
  },
  GeneralSettingsRead: { title: 'View Settings', description: 'See the general settings.', group: 'Configuration' },
  GeneralSettingsModify: {
    title: 'Manage Settings',
    description: 'Change the general settings.',
    group: 'Configuration',
  },
};

/** The Read permission a Modify permission implies, if any. */
export function impliedRead(permission: Permission): Permission | undefined {
  return permission.endsWith('Modify') ? (permission.replace(/Modify$/, 'Read') as Permission) : undefined;
}

/** The Modify permission paired with a Read permission, if any. */
export function pairedModify(permission: Permission): Permission | undefined {
  const modify = permission.replace(/Read$/, 'Modify');
  return permission.endsWith('Read') && isPermission(modify) ? modify : undefined;
}

/** A permission set with every implied Read added, in the canonical order. */
export function withImpliedReads(permissions: Iterable<Permission>): Permission[] {
  const held = new Set<Permission>();
  for (const permission of permissions) {
    held.add(permission);
    const read = impliedRead(permission);
    if (read) held.add(read);
  }
  return PERMISSIONS.filter((p) => held.has(p));
}

/**
 * Ticking or unticking one permission in a role editor: toggling Modify adds or removes its Read with it;
 * unticking Read removes its Modify (which implies it).
 */
export function togglePermission(current: readonly Permission[], permission: Permission, on: boolean): Permission[] {
  const next = new Set(current);
  const pair = [permission, impliedRead(permission)];
  if (!on) pair.push(pairedModify(permission));
  for (const member of pair) {
    if (!member) continue;
    if (on) next.add(member);
    else next.delete(member);
  }
  return PERMISSIONS.filter((p) => next.has(p));
}

/** The built-in Admin role: every permission; it cannot be deleted or stripped. */
export const ADMIN_ROLE = { id: 'Admin', name: 'Admin', permissions: PERMISSIONS } as const;
