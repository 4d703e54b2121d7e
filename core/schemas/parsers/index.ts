// The line parser a schema asks for.
import type { ParserSpec } from '../types';
import type { LineParser } from './common';
import { csvParser } from './csv';
import { fastmatchParser } from './fastmatch';
import { jsonParser } from './json';
import { regexParser } from './regex';

/** `fieldNames`: the raw names the schema's top-level fields read, which a CSV header line may use. */
export function lineParser(spec: ParserSpec | undefined, fieldNames: string[] = []): LineParser {
  if (spec?.csv) return csvParser(spec.csv, fieldNames);
  if (spec?.fastmatch) return fastmatchParser(spec.fastmatch);
  if (spec?.regex) return regexParser(spec.regex);
  return jsonParser;
}

export type { LineParser, LineInfo, RawRecord, RecordResult } from './common';
