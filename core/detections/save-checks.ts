// What a detection, global helper or data model must satisfy to be saved, beyond the shape of its YAML:
// an id the platform can use as a key and a module name, links that open only web pages, and log types that
// exist in the deployment. Pure: the save resolvers and bulk upload apply them with the deployment's log
// types (the Python itself is checked by the engine).
import { unknownLogTypeMessage } from '../log-sources/validation';
import { ID_KEY, type AnalysisType } from './formats';
import { queryNameProblem, queryProblems } from './scheduled-query';

export const MAX_ID_LENGTH = 256;
/** Letters, digits, dots, underscores and hyphens, starting with a letter or digit: no slashes or spaces. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const ID_CHARACTERS = 'Must start with a letter or digit and hold only letters, digits, dots, underscores and hyphens';

/** Why a RuleID, PolicyID, GlobalID or DataModelID cannot be saved, or undefined. */
export function detectionIdProblem(id: string): string | undefined {
  if (id.length > MAX_ID_LENGTH) return `Must be at most ${MAX_ID_LENGTH} characters`;
  return ID_PATTERN.test(id) ? undefined : ID_CHARACTERS;
}

/** The keys whose values the app shows as links. */
export const LINK_KEYS = ['Reference', 'Runbook'] as const;

// As a browser reads a link: surrounding spaces and control characters dropped, tabs and line breaks
// removed anywhere, then an optional scheme (`javascript:`, `data:`, `https:` …).
// eslint-disable-next-line no-control-regex -- control characters are what a browser ignores around a URL
const SURROUNDING = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TABS_AND_LINE_BREAKS = /[\t\n\r]/g;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Why a Reference or Runbook cannot be saved: a link to anything but an http or https address. Text without a scheme is fine. */
export function linkProblem(value: string): string | undefined {
  const scheme = SCHEME.exec(value.replace(SURROUNDING, '').replace(TABS_AND_LINE_BREAKS, ''))?.[1].toLowerCase();
  if (scheme === undefined || scheme === 'http' || scheme === 'https') return undefined;
  return `Must be an http or https link, not ${scheme}:`;
}

/** One problem of an item: the YAML key it is about, and what is wrong with its value. */
export interface SaveProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * Every problem of an item that passed the shape checks, each on its key. `knownLogTypes` holds the managed
 * and custom schemas (and those the stored version already names, so an archived schema does not block an
 * edit).
 */
export function saveProblems(
  type: AnalysisType,
  spec: Record<string, unknown>,
  knownLogTypes: ReadonlySet<string>,
): SaveProblem[] {
  const problems: SaveProblem[] = [];
  const idKey = ID_KEY[type];
  const id = spec[idKey];
  const isQuery = type === 'saved_query' || type === 'scheduled_query';
  const idProblem = typeof id === 'string' ? (isQuery ? queryNameProblem(id) : detectionIdProblem(id)) : undefined;
  if (idProblem) problems.push({ path: idKey, message: idProblem });
  if (type === 'rule' && typeof spec.BaseDetection === 'string') {
    const baseProblem = detectionIdProblem(spec.BaseDetection);
    if (baseProblem) problems.push({ path: 'BaseDetection', message: baseProblem });
  }
  for (const key of LINK_KEYS) {
    const value = spec[key];
    const problem = typeof value === 'string' ? linkProblem(value) : undefined;
    if (problem) problems.push({ path: key, message: problem });
  }
  if (Array.isArray(spec.LogTypes))
    for (const logType of spec.LogTypes)
      if (typeof logType === 'string' && !knownLogTypes.has(logType))
        problems.push({ path: 'LogTypes', message: unknownLogTypeMessage(logType) });
  if (isQuery) problems.push(...queryProblems(type, spec));
  return problems;
}

/** A problem as one line of text: `Key: message`. */
export const problemLine = (problem: SaveProblem): string => `${problem.path}: ${problem.message}`;
