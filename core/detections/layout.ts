// The panther-analysis directory layout as a model: YAML documents (read with the product's YAML reader:
// YAML 1.2 core schema, so on/off/yes/no and timestamps stay strings; no aliases) classified into analysis
// items, with every problem reported against its file while the rest of the repository still loads.
import { readYaml } from '../yaml';
import { ANALYSIS_TYPES, ID_KEY, shapeFor, withReferenceDefaults, type AnalysisType } from './formats';
import { check, isRecord } from './shape';
import { validateCorrelationRule } from './correlation';
import { ruleExpressionProblems } from './match-expressions';

export interface SourceFile {
  /** Path relative to the repository root, with `/` separators. */
  path: string;
  text: string;
}

export interface AnalysisItem {
  type: AnalysisType;
  id: string;
  /** The YAML file's path. */
  path: string;
  spec: Record<string, unknown>;
  /** The Python (or lookup data) file the item names, resolved against the YAML file's folder. */
  filePath?: string;
}

export interface FileIssue {
  path: string;
  message: string;
}

export interface Repository {
  items: AnalysisItem[];
  /** Problems that make a file unusable. */
  issues: FileIssue[];
  /** Problems worth telling that do not stop the file from being used. */
  warnings: FileIssue[];
}

/** Directories never read: hidden ones, dependencies and log schemas (not analysis items). */
export function isIgnoredDirectory(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules' || name === '__pycache__' || name === 'schemas';
}

export function isAnalysisFile(path: string): boolean {
  return /\.(ya?ml)$/i.test(path);
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function joinPath(dir: string, file: string): string {
  const parts = (dir ? `${dir}/${file}` : file).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

export interface LoadOptions {
  /** Unknown top-level keys become warnings instead of making the file invalid (`--ignore-extra-keys`). */
  ignoreExtraKeys?: boolean;
  /** Reads a file's YAML in place of readYaml (same values and errors), e.g. through the CLI's parse cache. */
  readYaml?: (text: string) => unknown;
}

const TOP_LEVEL_UNKNOWN_KEY = /^unknown key [^.[]+$/;

function classify(
  file: SourceFile,
  exists: (path: string) => boolean,
  options: LoadOptions,
  warnings: FileIssue[],
): AnalysisItem | FileIssue | undefined {
  let document: unknown;
  try {
    document = (options.readYaml ?? readYaml)(file.text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { path: file.path, message: `invalid YAML: ${reason}` };
  }
  // Like the reference tool, YAML without an AnalysisType is not an analysis item and is skipped.
  if (document === null || document === undefined || (isRecord(document) && document.AnalysisType === undefined))
    return undefined;
  if (!isRecord(document)) return { path: file.path, message: 'expected a YAML mapping at the top level' };
  const type = document.AnalysisType;
  if (typeof type !== 'string' || !(ANALYSIS_TYPES as readonly string[]).includes(type)) {
    return {
      path: file.path,
      message: `unknown AnalysisType ${JSON.stringify(type)} (expected one of ${ANALYSIS_TYPES.join(', ')})`,
    };
  }
  const analysisType = type as AnalysisType;
  const spec = withReferenceDefaults(analysisType, document);
  let problems = check(spec, shapeFor(analysisType, spec));
  if (options.ignoreExtraKeys) {
    for (const problem of problems.filter((p) => TOP_LEVEL_UNKNOWN_KEY.test(p)))
      warnings.push({ path: file.path, message: problem });
    problems = problems.filter((p) => !TOP_LEVEL_UNKNOWN_KEY.test(p));
  }
  if (analysisType === 'correlation_rule' && problems.length === 0) {
    problems.push(
      ...validateCorrelationRule(spec.Detection, { ruleId: String(spec.RuleID) })
        .filter((i) => i.level === 'error')
        .map((i) => i.message),
    );
  }
  if (analysisType === 'rule' || analysisType === 'scheduled_rule') problems.push(...ruleExpressionProblems(spec));
  if (Array.isArray(spec.Tests)) {
    const names = (spec.Tests as { Name?: unknown }[]).map((t) => t.Name);
    const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
    if (repeated.length) problems.push(`No duplicate test names: ${repeated.join(', ')}`);
  }
  if (problems.length) return { path: file.path, message: problems.join('; ') };
  const dedup = spec.DedupPeriodMinutes;
  if (dedup === 0)
    warnings.push({
      path: file.path,
      message: 'DedupPeriodMinutes is 0, which is ignored; return p_row_id from dedup() to disable deduplication',
    });
  else if (typeof dedup === 'number' && dedup < 5)
    warnings.push({ path: file.path, message: `DedupPeriodMinutes ${dedup} is below the minimum of 5 and is treated as 5` });
  const item: AnalysisItem = { type: analysisType, id: String(spec[ID_KEY[analysisType]]), path: file.path, spec };
  if (typeof spec.Filename === 'string') {
    item.filePath = joinPath(dirname(file.path), spec.Filename);
    if (!exists(item.filePath)) {
      const what = analysisType === 'lookup_table' ? 'data file' : 'Python file';
      return { path: file.path, message: `missing ${what} ${spec.Filename} (looked for ${item.filePath})` };
    }
  }
  return item;
}

/** Classify every file; duplicate ids, dangling pack entries and data-model conflicts are issues.
 * YAML files without an AnalysisType are skipped (they are not analysis items). */
export function loadRepository(
  files: readonly SourceFile[],
  exists: (path: string) => boolean,
  options: LoadOptions = {},
): Repository {
  const issues: FileIssue[] = [];
  const warnings: FileIssue[] = [];
  const items: AnalysisItem[] = [];
  const seen = new Map<string, AnalysisItem>();
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const result = classify(file, exists, options, warnings);
    if (result === undefined) continue;
    if ('message' in result) {
      issues.push(result);
      continue;
    }
    // One namespace for every kind of item, as in the reference tool.
    const first = seen.get(result.id);
    if (first) {
      issues.push({ path: result.path, message: `duplicate id ${result.id} (also defined in ${first.path})` });
      continue;
    }
    seen.set(result.id, result);
    items.push(result);
  }
  const checked = crossChecks(items);
  issues.push(...checked.issues);
  return { items, issues, warnings: [...warnings, ...checked.warnings] };
}

function crossChecks(items: readonly AnalysisItem[]): { issues: FileIssue[]; warnings: FileIssue[] } {
  const issues: FileIssue[] = [];
  const warnings: FileIssue[] = [];
  const ids = new Set(items.map((i) => i.id));
  const byId = new Map(items.map((i) => [i.id, i]));
  const modelByLogType = new Map<string, string>();
  for (const item of items) {
    if (item.type === 'pack') {
      const wanted = (item.spec.PackDefinition as { IDs: string[] }).IDs;
      const missing = wanted.filter((id) => !ids.has(id));
      if (missing.length) issues.push({ path: item.path, message: `pack lists unknown item(s): ${missing.join(', ')}` });
    }
    if (item.type === 'datamodel' && item.spec.Enabled === true) {
      for (const logType of item.spec.LogTypes as string[]) {
        const other = modelByLogType.get(logType);
        if (other)
          issues.push({
            path: item.path,
            message: `Conflicting Enabled LogType [${logType}] in Data Model [${item.id}] (also in ${other})`,
          });
        else modelByLogType.set(logType, item.id);
      }
    }
    if (item.type === 'correlation_rule') {
      const known = (ruleId: string) => {
        const target = byId.get(ruleId);
        if (!target) return 'missing' as const;
        return target.type === 'policy' ? ('policy' as const) : ('ok' as const);
      };
      for (const issue of validateCorrelationRule(item.spec.Detection, { ruleId: item.id, lookupRule: known })) {
        (issue.level === 'error' ? issues : warnings).push({ path: item.path, message: issue.message });
      }
    }
    if (item.type === 'rule' && typeof item.spec.BaseDetection === 'string' && !byId.has(item.spec.BaseDetection)) {
      issues.push({ path: item.path, message: `base detection ${item.spec.BaseDetection} not found` });
    }
  }
  return { issues, warnings };
}

export interface ItemFilter {
  ids?: readonly string[];
  types?: readonly string[];
  tags?: readonly string[];
  /** `KEY=V1,V2` filters on any top-level key (a list value matches when any element does). */
  fields?: Readonly<Record<string, readonly string[]>>;
}

function matchesAny(value: unknown, wanted: readonly string[]): boolean {
  const lowered = wanted.map((w) => w.toLowerCase());
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => v !== undefined && v !== null && lowered.includes(String(v).toLowerCase()));
}

/** Whether a detection passes the id, type, tag and field filters. */
export function selectItem(item: AnalysisItem, filter: ItemFilter): boolean {
  if (filter.ids?.length && !filter.ids.includes(item.id)) return false;
  if (filter.types?.length && !matchesAny(item.type, filter.types)) return false;
  if (filter.tags?.length && !matchesAny(item.spec.Tags, filter.tags)) return false;
  for (const [key, values] of Object.entries(filter.fields ?? {})) {
    if (!matchesAny(item.spec[key], values)) return false;
  }
  return true;
}
