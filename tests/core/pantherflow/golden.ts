// Golden fixtures: YAML files of cases. `UPDATE_GOLDEN=1 npx vitest run tests/core/pantherflow` rewrites the
// expected values from the current output (review the diff before committing).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { staticCatalog, type Catalog, type TableInfo } from '../../../core/pantherflow/catalog';
import { parseType } from '../../../core/pantherflow/types';

export const here = dirname(fileURLToPath(import.meta.url));
export const updating = process.env.UPDATE_GOLDEN === '1';

export function fixturePath(name: string): string {
  return join(here, 'fixtures', name);
}

export function loadCases<T>(name: string): T[] {
  return parse(readFileSync(fixturePath(name), 'utf8')) as T[];
}

export function saveCases<T>(name: string, cases: T[], header: string): void {
  // compat: strings a YAML 1.1 reader would take for another type (timestamps, on/off) are quoted, as before.
  const text = stringify(cases, { lineWidth: 0, aliasDuplicateObjects: false, singleQuote: true, compat: 'yaml-1.1' });
  writeFileSync(fixturePath(name), header + text);
}

/** The first comment lines of a fixture file, kept when it is rewritten. */
export function headerOf(name: string): string {
  const lines = readFileSync(fixturePath(name), 'utf8').split('\n');
  const out: string[] = [];
  for (const l of lines) {
    if (!l.startsWith('#')) break;
    out.push(l);
  }
  return out.length ? out.join('\n') + '\n' : '';
}

type ColumnSpec = string | { type: string; description?: string };

export function fixtureCatalog(): Catalog {
  const raw = parse(readFileSync(fixturePath('catalog.yaml'), 'utf8')) as (Omit<TableInfo, 'columns'> & {
    columns: Record<string, ColumnSpec>;
  })[];
  return staticCatalog(
    raw.map((t) => ({
      ...t,
      columns: Object.entries(t.columns).map(([name, spec]) =>
        typeof spec === 'string'
          ? { name, type: parseType(spec) }
          : { name, type: parseType(spec.type), ...(spec.description ? { description: spec.description } : {}) },
      ),
    })),
  );
}

export const LAKE_DIR = join(here, 'lake');
