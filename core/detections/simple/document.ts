// A simple detection's YAML text and the builder's group, both ways. The text is either the list of match
// expressions itself, or a whole detection document whose `Detection` (or `InlineFilters`) key holds it; writing
// a group replaces only that key, so the rest of the document (comments included) stays as written.
import { isMap, isScalar, parseDocument, stringify } from 'yaml';
import { readYaml } from '../../yaml';
import { isRecord } from '../shape';
import { MAX_GROUP_DEPTH, readExpressions, writeExpressions, type Group } from './model';

export const SYNTAX_ERROR = 'There is an error in your syntax.';
export const UNREPRESENTABLE = 'This filter contains legal YAML that cannot be represented in the Rule Builder';
export const TOO_DEEP = `The Rule Builder shows up to ${MAX_GROUP_DEPTH} levels of nested conditions: edit this one as YAML`;
export const LOG_TYPE_REQUIRED = 'A log type must be selected to edit filters and clauses';

export type TextReading =
  | { readonly ok: true; readonly group: Group }
  | {
      readonly ok: false;
      readonly reason: 'syntax' | 'unrepresentable' | 'too-deep';
      readonly message: string;
      /** The parser's words (syntax) or where the expression is (the others). */
      readonly detail: string;
    };

/** Which key of a detection document holds the expressions. */
export type ExpressionKey = 'Detection' | 'InlineFilters';

const STRINGIFY = { lineWidth: 0 } as const;

/** The builder's group for YAML text (see the file's comment), or why it has none. */
export function readDetectionText(text: string, key: ExpressionKey = 'Detection'): TextReading {
  let parsed: unknown;
  try {
    parsed = readYaml(text);
  } catch (err) {
    return { ok: false, reason: 'syntax', message: SYNTAX_ERROR, detail: (err as Error).message };
  }
  const expressions = isRecord(parsed) ? parsed[key] : parsed;
  if (expressions !== undefined && expressions !== null && !Array.isArray(expressions))
    return { ok: false, reason: 'unrepresentable', message: UNREPRESENTABLE, detail: `${key} must be a list` };
  const reading = readExpressions(expressions, key);
  if (reading.ok) return reading;
  return {
    ok: false,
    reason: reading.reason,
    message: reading.reason === 'too-deep' ? TOO_DEEP : UNREPRESENTABLE,
    detail: reading.at,
  };
}

/**
 * The YAML text with the group written in: into `key` of a detection document (keeping everything else), as
 * the list itself when the text is a list, or as a new document holding only `key` when the text is empty.
 */
export function writeDetectionText(text: string, group: Group, key: ExpressionKey = 'Detection'): string {
  const expressions = writeExpressions(group);
  const document = parseDocument(text, { schema: 'core' });
  if (document.errors.length === 0 && isMap(document.contents)) {
    if (key === 'InlineFilters' && expressions.length === 0) document.delete(key);
    else document.set(key, document.createNode(expressions));
    return document.toString(STRINGIFY);
  }
  if (document.errors.length === 0 && document.contents !== null && !isScalar(document.contents))
    return expressions.length === 0 ? '[]\n' : stringify(expressions, STRINGIFY);
  // Empty text (or text that is not YAML) starts a detection document.
  return stringify(key === 'InlineFilters' && expressions.length === 0 ? {} : { [key]: expressions }, STRINGIFY);
}

/** A unit test appended to a detection document's `Tests` (created when absent). */
export function appendTest(text: string, test: Record<string, unknown>): string {
  const document = parseDocument(text, { schema: 'core' });
  if (document.errors.length > 0 || !isMap(document.contents)) throw new Error('not a detection document');
  const tests = document.get('Tests');
  if (tests && typeof tests === 'object' && 'add' in tests) (tests as { add(v: unknown): void }).add(document.createNode(test));
  else document.set('Tests', document.createNode([test]));
  return document.toString(STRINGIFY);
}
