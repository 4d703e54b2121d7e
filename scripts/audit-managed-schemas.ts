// Audit of the managed schemas against "as wide as the real logs" (issue 16): lists, across every managed
// schema, the places where a schema is narrower than a vendor's logs can be.
//   npx tsx scripts/audit-managed-schemas.ts            (a report by family, with counts)
//   npx tsx scripts/audit-managed-schemas.ts --json     (the findings as JSON)
//
// Four lists:
// - value lists: every `validate.allow` / `validate.deny` (each must be in CLOSED_VALUE_LISTS, see
//   scripts/gen-managed-schemas.ts; the deny lists are the discriminators that tell two types apart);
// - required: every `required` field (required only where the vendor always sends it, or to tell types apart);
// - 64-bit: every integer field (`bigint`, `int`, `smallint`) whose name says id, nonce, hash, sequence,
//   counter, bytes or size: such values may use the whole unsigned 64-bit range, which `bigint` (signed)
//   refuses past 2^63-1; the exact type for them is `string` (docs/schemas.md, "Managed log types");
// - shaped: every `object` / `array` field. A vendor that documents a field as polymorphic (an object here,
//   a string or a list there) needs it typed `json`; those whose names say parameters, details, body, data,
//   metadata, context or properties are flagged as the likely ones. Those a vendor documents as varying by
//   event type are json already (docs/schemas.md, "Polymorphic values"; tests/core/schemas/polymorphic-fields
//   .test.ts); the objects still listed are those the review kept typed.
// It reads the YAML sources (core/schemas/managed/*.yml) and changes nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FieldSpec, ValueSpec } from '../core/schemas/types';
import { loadSchemaYaml } from '../core/schemas/yaml';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'core', 'schemas', 'managed');

export interface AuditFinding {
  schema: string;
  /** Dotted path; `[]` marks an array element. */
  path: string;
  type: string;
  /** What else is said of the field (the list, the reason it is flagged). */
  note?: string;
  /** For 64-bit and shaped findings: whether the name makes it a likely problem. */
  flagged?: boolean;
}

export interface ManagedSchemaAudit {
  schemas: number;
  valueLists: AuditFinding[];
  required: AuditFinding[];
  integers64: AuditFinding[];
  shaped: AuditFinding[];
}

/** Names of integer fields that may hold unsigned 64-bit values (ids, nonces, hashes, counters, sizes). */
export const UNSIGNED_64_NAME =
  /(^|[^a-z])(id|ids|nonce|hash|seq|sequence|serial|cookie|counter|count|bytes|pkts|packets|size|len|length|offset|pid|tid|uid|gid|inode|handle)$|(Id|ID|Nonce|Hash|Seq|Sequence|Serial|Cookie|Counter|Count|Bytes|Pkts|Packets|Size|Length|Offset|Pid|PID|Tid|Uid|Gid|Inode|Handle)s?$/;

/** Names of object/array fields that vendors commonly send in more than one shape. */
export const POLYMORPHIC_NAME =
  /(param|parameters|args|arguments|detail|details|body|payload|data|metadata|context|properties|attributes|extra|changes|value|values|request|response|input|output|settings|config|configuration)s?$/i;

const INTEGER_TYPES = new Set(['bigint', 'int', 'smallint']);

function walk(schema: string, v: ValueSpec | FieldSpec, path: string, out: ManagedSchemaAudit): void {
  const field = v as FieldSpec;
  const name = path.split('.').pop()!.replace(/\[\]$/, '');
  if (v.validate?.allow || v.validate?.deny) {
    const lists = [
      v.validate.allow ? `allow ${JSON.stringify(v.validate.allow)}` : '',
      v.validate.deny ? `deny ${JSON.stringify(v.validate.deny)}` : '',
    ].filter(Boolean);
    out.valueLists.push({ schema, path, type: v.type, note: lists.join(' ') });
  }
  if (field.required) out.required.push({ schema, path, type: v.type, note: v.isEventTime ? 'event time' : undefined });
  if (INTEGER_TYPES.has(v.type)) {
    const flagged = UNSIGNED_64_NAME.test(name);
    out.integers64.push({ schema, path, type: v.type, flagged });
  }
  if ((v.type === 'object' || v.type === 'array') && !v.isEmbeddedJSON) {
    const flagged = POLYMORPHIC_NAME.test(name);
    out.shaped.push({
      schema,
      path,
      type: v.type,
      flagged,
      note: v.type === 'object' ? `${v.fields?.length ?? 0} fields` : `of ${v.element?.type}`,
    });
  }
  for (const f of v.fields ?? []) walk(schema, f, `${path}.${f.name}`, out);
  if (v.element) walk(schema, v.element, `${path}[]`, out);
}

/** The audit of the managed YAML (by default the files in core/schemas/managed/). */
export function auditManagedSchemas(files: Record<string, string> = readManagedYaml()): ManagedSchemaAudit {
  const out: ManagedSchemaAudit = { schemas: 0, valueLists: [], required: [], integers64: [], shaped: [] };
  for (const [name, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    const result = loadSchemaYaml(text, { aliases: true });
    if (!result.ok) throw new Error(`${name}: ${result.problems.map((p) => p.message).join('; ')}`);
    out.schemas += 1;
    for (const f of result.spec.fields) walk(name, f, f.name, out);
  }
  return out;
}

export function readManagedYaml(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yml'))) out[f.slice(0, -4)] = readFileSync(join(dir, f), 'utf8');
  return out;
}

/** The family of a log type: its vendor (`AWS`, `Microsoft365`, `Zeek`). */
export function familyOf(schema: string): string {
  return schema.split('.')[0];
}

function report(audit: ManagedSchemaAudit): string {
  const lines: string[] = [];
  const flagged64 = audit.integers64.filter((f) => f.flagged);
  const flaggedShaped = audit.shaped.filter((f) => f.flagged);
  lines.push(`${audit.schemas} managed schemas`);
  lines.push(`  value lists (allow/deny):           ${audit.valueLists.length}`);
  lines.push(`  required fields:                    ${audit.required.length}`);
  lines.push(
    `  integer fields:                     ${audit.integers64.length} (${flagged64.length} named like ids, hashes, counters or sizes)`,
  );
  lines.push(
    `  object/array fields:                ${audit.shaped.length} (${flaggedShaped.length} named like parameters, details, bodies)`,
  );
  const families = [
    ...new Set([audit.valueLists, audit.required, audit.integers64, audit.shaped].flat().map((f) => familyOf(f.schema))),
  ].sort();
  for (const family of families) {
    lines.push('', `## ${family}`);
    const section = (title: string, list: AuditFinding[]) => {
      const mine = list.filter((f) => familyOf(f.schema) === family);
      if (mine.length === 0) return;
      lines.push(`  ${title} (${mine.length})`);
      for (const f of mine) lines.push(`    ${f.schema}:${f.path} ${f.type}${f.note ? ` ${f.note}` : ''}`);
    };
    section('value lists', audit.valueLists);
    section('required', audit.required);
    section('integers that may be unsigned 64-bit', flagged64);
    section('objects/arrays a vendor may send in another shape', flaggedShaped);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const audit = auditManagedSchemas();
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(audit, null, 2)}\n` : report(audit));
}
