// Selector completions for a log type: every field path of its schema (its YAML spec), as JSONPath selectors,
// arrays marked with [*], and the p_any_* indicator fields every normalized event may carry.
import { parse } from 'yaml';
import { selectorOfPath } from '../../../../core/lookups/selectors';

interface FieldLike {
  name?: unknown;
  type?: unknown;
  fields?: unknown;
  element?: { type?: unknown; fields?: unknown };
}

export const INDICATOR_SELECTORS = [
  '$.p_any_ip_addresses[*]',
  '$.p_any_domain_names[*]',
  '$.p_any_sha256_hashes[*]',
  '$.p_any_md5_hashes[*]',
  '$.p_any_emails[*]',
  '$.p_any_usernames[*]',
  '$.p_any_aws_account_ids[*]',
];

function walk(fields: unknown, prefix: string[], out: string[]): void {
  if (!Array.isArray(fields)) return;
  for (const raw of fields as FieldLike[]) {
    if (typeof raw?.name !== 'string') continue;
    const path = [...prefix, raw.name];
    if (raw.type === 'object') walk(raw.fields, path, out);
    else if (raw.type === 'array') {
      const selector = selectorOfPath(path);
      out.push(`${selector}[*]`);
      if (raw.element?.type === 'object') {
        const inner: string[] = [];
        walk(raw.element.fields, [], inner);
        for (const s of inner) out.push(`${selector}[*]${s.slice(1)}`);
      }
    } else out.push(selectorOfPath(path));
  }
}

/** The selectors a schema spec offers; empty when the spec cannot be read. */
export function schemaSelectors(spec: string | null | undefined): string[] {
  if (!spec) return [...INDICATOR_SELECTORS];
  try {
    const doc = parse(spec) as { fields?: unknown } | null;
    const out: string[] = [];
    walk(doc?.fields, [], out);
    return [...out, ...INDICATOR_SELECTORS];
  } catch {
    return [...INDICATOR_SELECTORS];
  }
}
