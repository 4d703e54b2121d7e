// A global helper's form values and its panther-analysis document, both ways. The helper's id is the Python
// module detections import, so it is a Python identifier; its Filename is `<id>.py`. Keys the form does not
// show are kept as they were.
import { stringify } from 'yaml';
import { readYaml } from '../../../../core/yaml';

export interface HelperValues {
  readonly id: string;
  readonly description: string;
  readonly body: string;
}

export const HELPER_TEMPLATE = `# Functions that detections share: \`import <helper id>\` in a rule or policy.


def example(event):
    return event.get("example")
`;

export const HELPER_ID_MESSAGE = 'Must be a Python module name: letters, digits and underscores, not starting with a digit';

/** The problems of the form's values, by field (empty when it can be saved). */
export function helperProblems(values: HelperValues): Partial<Record<keyof HelperValues, string>> {
  const problems: Partial<Record<keyof HelperValues, string>> = {};
  if (!values.id.trim()) problems.id = 'This field is required';
  else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(values.id)) problems.id = HELPER_ID_MESSAGE;
  if (/[<>&"]/.test(values.description)) problems.description = 'Must not contain < > & or "';
  if (!values.body.trim()) problems.body = 'This field is required';
  return problems;
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The YAML document and Python source of a helper; `previousYaml` keeps the keys the form does not show. */
export function helperDocument(values: HelperValues, previousYaml?: string): { yaml: string; body: string } {
  const previous = previousYaml ? record(readYaml(previousYaml)) : {};
  const document: Record<string, unknown> = {
    ...previous,
    AnalysisType: 'global',
    GlobalID: values.id,
    Filename: typeof previous.Filename === 'string' ? previous.Filename : `${values.id}.py`,
  };
  if (values.description.trim()) document.Description = values.description.trim();
  else delete document.Description;
  return { yaml: stringify(document), body: values.body };
}

/** A stored helper as the form's values. */
export function helperValues(stored: { id: string; yaml: string; body: string | null }): HelperValues {
  const document = record(readYaml(stored.yaml));
  return {
    id: stored.id,
    description: typeof document.Description === 'string' ? document.Description : '',
    body: stored.body ?? '',
  };
}
