// The catalog: the databases, tables and columns a query may read. An interface, so the schemas (or a lake
// scan, or a test fixture) can feed it; `staticCatalog` wraps a plain list.
import type { FlowType } from './types';

export interface ColumnInfo {
  readonly name: string;
  readonly type: FlowType;
  readonly description?: string;
}

export interface TableInfo {
  /** e.g. `panther_logs` */
  readonly database: string;
  /** e.g. `aws_cloudtrail` */
  readonly name: string;
  readonly description?: string;
  readonly columns: readonly ColumnInfo[];
  /** Stored in the lake layout, partitioned by year, month, day and hour of `p_event_time`. */
  readonly timePartitioned?: boolean;
}

export interface Catalog {
  tables(): readonly TableInfo[];
}

export function staticCatalog(tables: readonly TableInfo[]): Catalog {
  return { tables: () => tables };
}

/** The name users write: `panther_logs.public.aws_cloudtrail`. */
export function qualifiedName(t: TableInfo): string {
  return `${t.database}.public.${t.name}`;
}

/** Resolves `db.public.table` or `db.table`. */
export function findTable(catalog: Catalog, parts: readonly string[]): TableInfo | undefined {
  if (parts.length === 3 && parts[1] !== 'public') return undefined;
  if (parts.length !== 2 && parts.length !== 3) return undefined;
  const db = parts[0];
  const name = parts[parts.length - 1];
  return catalog.tables().find((t) => t.database === db && t.name === name);
}

export const EVENT_TIME = 'p_event_time';
export const PARTITION_COLUMNS = ['year', 'month', 'day', 'hour'] as const;
