// The line parser a schema asks for.
import type { ParserSpec } from '../types';
import type { LineParser } from './common';
import { csvParser } from './csv';
import { fastmatchParser } from './fastmatch';
import { jsonParser } from './json';
import { regexParser } from './regex';

export function lineParser(spec: ParserSpec | undefined): LineParser {
  if (spec?.csv) return csvParser(spec.csv);
  if (spec?.fastmatch) return fastmatchParser(spec.fastmatch);
  if (spec?.regex) return regexParser(spec.regex);
  return jsonParser;
}

export type { LineParser, LineInfo, RawRecord, RecordResult } from './common';
