// regex: the `match` lines joined into one regular expression with grok patterns and named groups.
import { compileGrok } from '../grok';
import type { RegexParserSpec } from '../types';
import { TextOptions, type LineParser, type RawRecord, type RecordResult } from './common';

export function regexParser(spec: RegexParserSpec): LineParser {
  const { regex, fields } = compileGrok(spec.match.join(''), spec.patternDefinitions);
  const options = new TextOptions(spec);
  return {
    parse(rawLine: string): RecordResult {
      const m = regex.exec(options.strip(rawLine));
      if (!m || !m.groups) return 'line does not match the pattern';
      const record: RawRecord = {};
      const groups = m.groups;
      for (let i = 0; i < fields.length; i++) {
        const value = groups[`g${i}`];
        if (value !== undefined && record[fields[i]] === undefined) options.set(record, fields[i], value);
      }
      return options.finish(record);
    },
  };
}
