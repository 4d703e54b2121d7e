// A data model's form values and its panther-analysis document, both ways: log types, mappings of UDM names
// to a path (a field path, `$.a.b` or `a.b`) or a method (a function of the optional Python), and the Python.
// Keys the form does not show are kept as they were.
import { stringify } from 'yaml';
import { readYaml } from '../../../../core/yaml';

export type MappingKind = 'path' | 'method';

export interface MappingValues {
  readonly name: string;
  readonly kind: MappingKind;
  readonly value: string;
}

export interface DataModelValues {
  readonly id: string;
  readonly displayName: string;
  readonly enabled: boolean;
  readonly logTypes: readonly string[];
  readonly mappings: readonly MappingValues[];
  /** Optional Python holding the mapping methods. */
  readonly body: string;
}

export const EMPTY_DATA_MODEL: DataModelValues = {
  id: '',
  displayName: '',
  enabled: true,
  logTypes: [],
  mappings: [{ name: '', kind: 'path', value: '' }],
  body: '',
};

export interface DataModelProblems {
  id?: string;
  displayName?: string;
  logTypes?: string;
  /** By mapping row. */
  mappings: Record<number, { name?: string; value?: string }>;
  mappingList?: string;
  body?: string;
}

const REQUIRED = 'This field is required';

/** The problems of the form's values (an empty `mappings` and no other key when it can be saved). */
export function dataModelProblems(values: DataModelValues): DataModelProblems {
  const problems: DataModelProblems = { mappings: {} };
  if (!values.id.trim()) problems.id = REQUIRED;
  else if (/[<>&"%]/.test(values.id)) problems.id = 'Must not contain < > & " or %';
  if (values.displayName && !/^[A-Za-z0-9 -]*$/.test(values.displayName))
    problems.displayName = 'Can only include alphanumeric characters, dashes and spaces';
  else if (values.displayName.length > 36) problems.displayName = 'Must be at most 36 characters';
  if (!values.logTypes.length) problems.logTypes = REQUIRED;
  if (!values.mappings.length) problems.mappingList = 'Add at least one mapping';
  const names = values.mappings.map((m) => m.name.trim());
  values.mappings.forEach((m, i) => {
    const row: { name?: string; value?: string } = {};
    if (!m.name.trim()) row.name = REQUIRED;
    else if (names.indexOf(m.name.trim()) !== i) row.name = 'No duplicates allowed';
    if (!m.value.trim()) row.value = REQUIRED;
    else if (m.kind === 'method' && !new RegExp(`^def\\s+${m.value.trim()}\\s*\\(`, 'm').test(values.body))
      row.value = `The Python defines no function ${m.value.trim()}`;
    if (row.name || row.value) problems.mappings[i] = row;
  });
  return problems;
}

export const hasProblems = (p: DataModelProblems) =>
  Boolean(p.id || p.displayName || p.logTypes || p.mappingList || p.body || Object.keys(p.mappings).length);

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The YAML document and (when there is Python) the source of a data model. */
export function dataModelDocument(values: DataModelValues, previousYaml?: string): { yaml: string; body: string | null } {
  const previous = previousYaml ? record(readYaml(previousYaml)) : {};
  const withPython = values.body.trim().length > 0;
  const document: Record<string, unknown> = {
    ...previous,
    AnalysisType: 'datamodel',
    DataModelID: values.id.trim(),
    Enabled: values.enabled,
    LogTypes: [...values.logTypes],
    Mappings: values.mappings.map((m) => ({ Name: m.name.trim(), [m.kind === 'path' ? 'Path' : 'Method']: m.value.trim() })),
  };
  if (values.displayName.trim()) document.DisplayName = values.displayName.trim();
  else delete document.DisplayName;
  if (withPython)
    document.Filename =
      typeof previous.Filename === 'string' ? previous.Filename : `${values.id.trim().replace(/[^A-Za-z0-9_]/g, '_')}.py`;
  else delete document.Filename;
  return { yaml: stringify(document), body: withPython ? values.body : null };
}

/** A stored data model as the form's values. */
export function dataModelValues(stored: { id: string; yaml: string; body: string | null }): DataModelValues {
  const document = record(readYaml(stored.yaml));
  const mappings = Array.isArray(document.Mappings) ? document.Mappings.map(record) : [];
  return {
    id: stored.id,
    displayName: typeof document.DisplayName === 'string' ? document.DisplayName : '',
    enabled: document.Enabled === true,
    logTypes: Array.isArray(document.LogTypes) ? document.LogTypes.map(String) : [],
    mappings: mappings.map((m) => ({
      name: String(m.Name ?? ''),
      kind: typeof m.Method === 'string' ? 'method' : 'path',
      value: String(m.Method ?? m.Path ?? ''),
    })),
    body: stored.body ?? '',
  };
}
