// Embeds core/schemas/managed/*.yml into core/schemas/managed/index.ts, so the managed schemas load without
// file access (Node, Lambda bundles, the browser). Run after editing a managed schema:
//   npx tsx scripts/gen-managed-schemas.ts          (writes the module)
//   npx tsx scripts/gen-managed-schemas.ts --check  (exit 1 when the module is out of date)
//
// The YAML files are the source: this script learns nothing from samples, it copies. What it does enforce is
// the rule that keeps the managed schemas as wide as the real logs: a value list (`validate.allow`) is only
// allowed where the vendor documents the set as closed or the value is the constant that names the log type
// (and so tells two log types apart). Every such list is written down below with its reason; a list that is
// not, or whose values differ, stops the generation. Types learnt from a sample (an open enumeration, a
// `bigint` for an unsigned 64-bit id, an object for a per-model or per-action body) are what made real events
// fail before; see docs in the schema guide ("Managed schemas") for the rules.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FieldSpec, ValueSpec } from '../core/schemas/types';
import { loadSchemaYaml } from '../core/schemas/yaml';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'core', 'schemas', 'managed');

interface ClosedList {
  values: string[];
  why: string;
}

const DISCRIMINATOR = 'constant that names the log type; tells it apart from the others';

/** Every value list in the managed schemas, by `<schema>:<field path>`. */
export const CLOSED_VALUE_LISTS: Record<string, ClosedList> = {
  'AWS.VPCFlow:action': { values: ['ACCEPT', 'REJECT'], why: 'AWS documents action as ACCEPT or REJECT' },
  'AWS.VPCFlow:status': { values: ['OK', 'NODATA', 'SKIPDATA'], why: 'AWS documents log-status as OK, NODATA or SKIPDATA' },
  'Amazon.EKS.Audit:kind': { values: ['Event'], why: `audit.k8s.io kind; ${DISCRIMINATOR}` },
  'Azure.Audit:resourceScope': {
    values: ['tenants', 'TENANTS'],
    why: 'Entra ID logs are tenant-scoped (/tenants/<id>/providers/Microsoft.aadiam); tells them from Azure Monitor',
  },
  'Box.Event:type': { values: ['event'], why: `Box event object type; ${DISCRIMINATOR}` },
  'GSuite.ActivityEvent:kind': { values: ['admin#reports#activity'], why: `Reports API kind; ${DISCRIMINATOR}` },
  'Microsoft365.Audit.AzureActiveDirectory:Workload': { values: ['AzureActiveDirectory'], why: DISCRIMINATOR },
  'Microsoft365.Audit.Exchange:workload': { values: ['Exchange'], why: DISCRIMINATOR },
  'Microsoft365.Audit.SharePoint:Workload': { values: ['SharePoint', 'OneDrive'], why: DISCRIMINATOR },
  'MicrosoftIntune.AuditLogs:category': { values: ['AuditLogs'], why: DISCRIMINATOR },
  'MicrosoftIntune.OperationalLogs:category': { values: ['OperationalLogs'], why: DISCRIMINATOR },
  'OCSF.NetworkActivity:class_name': { values: ['Network Activity'], why: `OCSF class 4001; ${DISCRIMINATOR}` },
  'Osquery.Differential:action': {
    values: ['added', 'removed'],
    why: 'osquery documents differential results as added or removed (snapshot results are another format)',
  },
  'PushSecurity.Activity:object': {
    values: ['APP_BANNER', 'LOGIN', 'PASSWORD_USAGE', 'BROWSER_EXTENSION'],
    why: 'the webhook object names its stream; the three Push Security types share every other required field',
  },
  'PushSecurity.Controls:object': {
    values: ['PASSWORD_PHISHING', 'MFA_ENFORCEMENT', 'SESSION_TOKEN_THEFT', 'DETECTION'],
    why: 'the webhook object names its stream; the three Push Security types share every other required field',
  },
  'PushSecurity.Entities:object': {
    values: ['ACCOUNT', 'APP', 'EMPLOYEE', 'FINDING', 'BROWSER'],
    why: 'the webhook object names its stream; the three Push Security types share every other required field',
  },
  'Salesforce.ApiAnomalyEventStore:EVENT_TYPE': { values: ['ApiAnomalyEventStore'], why: DISCRIMINATOR },
  'Salesforce.ApiConnectedApp:EVENT_TYPE': { values: ['ApiConnectedApp'], why: DISCRIMINATOR },
  'Salesforce.ApiTotalUsage:EVENT_TYPE': { values: ['ApiTotalUsage'], why: DISCRIMINATOR },
  'Salesforce.BulkApiResultEventStore:EVENT_TYPE': { values: ['BulkApiResultEventStore'], why: DISCRIMINATOR },
  'Salesforce.ConnectedAppUsageEventStore:EVENT_TYPE': { values: ['ConnectedAppUsageEventStore'], why: DISCRIMINATOR },
  'Salesforce.Login:EVENT_TYPE': { values: ['Login'], why: DISCRIMINATOR },
  'Salesforce.LoginAs:EVENT_TYPE': { values: ['LoginAs'], why: DISCRIMINATOR },
  'Salesforce.OAuthTokenRefreshFailed:EVENT_TYPE': { values: ['OAuthTokenRefreshFailed'], why: DISCRIMINATOR },
  'Salesforce.OAuthTokenRevoked:EVENT_TYPE': { values: ['OAuthTokenRevoked'], why: DISCRIMINATOR },
  'Snowflake.GrantsToUsers:GRANTED_TO': {
    values: ['USER', 'APPLICATION_ROLE'],
    why: 'grants to users are granted to a user (or an application role); tells them from Snowflake.GrantsToRoles rows',
  },
  'Suricata.Alert:event_type': { values: ['alert'], why: `EVE event_type; ${DISCRIMINATOR}` },
  'Suricata.DNS:event_type': { values: ['dns'], why: `EVE event_type; ${DISCRIMINATOR}` },
  'Suricata.Flow:event_type': { values: ['flow'], why: `EVE event_type; ${DISCRIMINATOR}` },
  'Suricata.HTTP:event_type': { values: ['http'], why: `EVE event_type; ${DISCRIMINATOR}` },
  'Suricata.TLS:event_type': { values: ['tls'], why: `EVE event_type; ${DISCRIMINATOR}` },
  'Zeek.Conn:proto': {
    values: ['tcp', 'udp', 'icmp', 'unknown_transport'],
    why: "Zeek's transport_proto enum is closed: unknown_transport, tcp, udp, icmp",
  },
  'Zscaler.ZIA.AdminAuditLog:sourcetype': { values: ['zscalernss-audit'], why: `NSS feed source type; ${DISCRIMINATOR}` },
};

function collectLists(fields: ValueSpec['fields'], prefix: string, out: Map<string, string[]>): void {
  for (const f of fields ?? []) visit(f, prefix ? `${prefix}.${f.name}` : f.name, out);
}

function visit(v: ValueSpec | FieldSpec, path: string, out: Map<string, string[]>): void {
  if (v.validate?.allow) out.set(path, v.validate.allow);
  if (v.fields) collectLists(v.fields, path, out);
  if (v.element) visit(v.element, `${path}[]`, out);
}

/** Value lists in the managed YAML that are not written down above (or differ from it), and entries above that no schema has. */
export function valueListProblems(files: Record<string, string> = readManagedYaml()): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [name, text] of Object.entries(files)) {
    const result = loadSchemaYaml(text, { aliases: true });
    if (!result.ok) continue; // the managed tests report invalid schemas
    const lists = new Map<string, string[]>();
    collectLists(result.spec.fields, '', lists);
    for (const [path, values] of lists) {
      const key = `${name}:${path}`;
      seen.add(key);
      const known = CLOSED_VALUE_LISTS[key];
      if (!known) problems.push(`${key}: value list ${JSON.stringify(values)} is not documented as closed`);
      else if (JSON.stringify(known.values) !== JSON.stringify(values))
        problems.push(`${key}: value list ${JSON.stringify(values)} differs from the documented ${JSON.stringify(known.values)}`);
    }
  }
  for (const key of Object.keys(CLOSED_VALUE_LISTS))
    if (!seen.has(key)) problems.push(`${key}: documented but not in any schema`);
  return problems;
}

function readManagedYaml(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yml'))) out[f.slice(0, -4)] = readFileSync(join(dir, f), 'utf8');
  return out;
}

export function generateManagedModule(): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort();
  const entries = files.map((f) => `  ${JSON.stringify(f.slice(0, -4))}: ${JSON.stringify(readFileSync(join(dir, f), 'utf8'))},`);
  return [
    '// Generated by scripts/gen-managed-schemas.ts from core/schemas/managed/*.yml. Do not edit by hand.',
    'export const MANAGED_SCHEMA_YAML: Record<string, string> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

/**
 * The same schemas, each as the JSON text of its validated spec: what the runtime reads, so loading a managed
 * log type costs a JSON.parse and neither the YAML library nor validation (the YAML above stays the source and
 * what the schemas page shows). A schema that does not validate stops the generation.
 */
export function generateManagedSpecsModule(): string {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort();
  const entries = files.map((f) => {
    const name = f.slice(0, -4);
    const result = loadSchemaYaml(readFileSync(join(dir, f), 'utf8'), { aliases: true });
    if (!result.ok) {
      throw new Error(
        `${f} is not a valid schema: ${result.problems.map((p) => `${p.path || '(schema)'}: ${p.message}`).join('; ')}`,
      );
    }
    return `  ${JSON.stringify(name)}: ${JSON.stringify(JSON.stringify(result.spec))},`;
  });
  return [
    '// Generated by scripts/gen-managed-schemas.ts from core/schemas/managed/*.yml. Do not edit by hand.',
    "// Each managed schema's validated spec as JSON text, parsed on first use (core/schemas/managed-schemas.ts).",
    'export const MANAGED_SCHEMA_SPECS: Record<string, string> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

export const managedModulePath = join(dir, 'index.ts');
export const managedSpecsModulePath = join(dir, 'specs.ts');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = valueListProblems();
  if (problems.length > 0) {
    process.stderr.write(
      `value lists the vendors do not document as closed (remove them, or add them with the reason to CLOSED_VALUE_LISTS):\n${problems.map((p) => `  ${p}\n`).join('')}`,
    );
    process.exitCode = 1;
  } else {
    const modules: [string, string][] = [
      [managedModulePath, generateManagedModule()],
      [managedSpecsModulePath, generateManagedSpecsModule()],
    ];
    for (const [path, text] of modules) {
      if (process.argv.includes('--check')) {
        if (readFileSync(path, 'utf8') !== text) {
          process.stderr.write(`${path} is out of date: run npx tsx scripts/gen-managed-schemas.ts\n`);
          process.exitCode = 1;
        }
      } else {
        writeFileSync(path, text);
        process.stdout.write(`wrote ${path}\n`);
      }
    }
  }
}
