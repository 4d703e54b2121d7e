// Normalization: the standard p_* fields every parsed event carries.
import type { IndicatorSet } from './indicators';
import { rowId } from './rowid';
import { formatInstant, instantFromMillis, type Instant } from './time';

/** Where a line came from and when it is parsed; the pipeline passes one per line. */
export interface ParseContext {
  /** The log source's id (p_source_id). */
  sourceId?: string;
  /** The log source's label (p_source_label). */
  sourceLabel?: string;
  /** The object or stream the line was read from (an S3 key); part of p_row_id. */
  objectKey?: string;
  /** 1-based line number within the object; part of p_row_id. */
  lineNumber?: number;
  /** The event's position within its line or record (elements of a JSON array); part of p_row_id. Default 0. */
  eventIndex?: number;
  /** When the line is parsed (p_parse_time, and p_event_time when the event has no time). Defaults to now. */
  parseTime?: Date;
}

export type NormalizedEvent = Record<string, unknown>;

/** Reads a unified data model value from a parsed event: the first of its paths with a value. */
export type UdmReader = (event: Record<string, unknown>) => Record<string, unknown> | undefined;

export function udmReader(mappings: { name: string; paths: string[] }[] | undefined): UdmReader | null {
  if (!mappings || mappings.length === 0) return null;
  // A key no plain object or array inherits (not `toString`, `length`, `__proto__`, ...) is read directly: on an
  // event's objects and arrays (object literals, arrays, JSON values) the read is then own or undefined, as
  // Object.hasOwn would have it, without the call. Other keys keep the check.
  const inherited = (key: string) => key in Object.prototype || key in Array.prototype;
  const compiled = mappings.map((m) => {
    const [group, name] = m.name.split('.') as [string, string];
    const paths = m.paths.map((p) => p.split('.'));
    return { group, name, paths, checks: paths.map((p) => p.map(inherited)) };
  });
  // Indexed loops: this runs for every event of the log type.
  return (event) => {
    let udm: Record<string, Record<string, unknown>> | undefined;
    for (let i = 0; i < compiled.length; i++) {
      const { group, name, paths, checks } = compiled[i];
      for (let j = 0; j < paths.length; j++) {
        const path = paths[j];
        const check = checks[j];
        let v: unknown = event;
        for (let k = 0; k < path.length && v !== undefined; k++) {
          const key = path[k];
          if (typeof v !== 'object' || v === null) v = undefined;
          else if (!check[k] || Object.hasOwn(v, key)) v = (v as Record<string, unknown>)[key];
          else v = undefined;
        }
        if (v === undefined || v === null || v === '') continue;
        udm ??= {};
        (udm[group] ??= {})[name] = v;
        break;
      }
    }
    return udm;
  };
}

let cachedMs = NaN;
let cached: { readonly instant: Instant; readonly text: string } = { instant: { s: 0, ns: 0 }, text: '' };

/** The parse time as an instant and as text, cached (the same object while it holds): a batch of lines shares
 * one parse time. */
export function parseTimeOf(ctx: ParseContext): { readonly instant: Instant; readonly text: string } {
  const ms = ctx.parseTime ? ctx.parseTime.getTime() : Date.now();
  if (ms !== cachedMs) {
    cachedMs = ms;
    const instant = instantFromMillis(ms);
    cached = { instant, text: formatInstant(instant) };
  }
  return cached;
}

export function normalize(
  event: Record<string, unknown>,
  logType: string,
  eventTimeText: string,
  parseTimeText: string,
  indicators: IndicatorSet,
  ctx: ParseContext,
  udm: UdmReader | null = null,
): NormalizedEvent {
  event.p_log_type = logType;
  event.p_row_id = rowId({
    sourceId: ctx.sourceId ?? '',
    objectKey: ctx.objectKey ?? '',
    lineNumber: ctx.lineNumber ?? 0,
    index: ctx.eventIndex ?? 0,
  });
  event.p_event_time = eventTimeText;
  event.p_parse_time = parseTimeText;
  if (ctx.sourceId !== undefined) event.p_source_id = ctx.sourceId;
  if (ctx.sourceLabel !== undefined) event.p_source_label = ctx.sourceLabel;
  indicators.writeTo(event);
  if (udm) {
    const value = udm(event);
    if (value) event.p_udm = value;
  }
  return event;
}
