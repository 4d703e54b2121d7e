// A detection as submitted (its YAML document and, when the document names a `Filename`, the Python source)
// validated with the rules of core/detections, the same ones bulk upload and `caracal test` apply.
import { loadRepository, type AnalysisItem } from '../../../core/detections';
import { readYaml } from '../../../core/yaml';
import { isStoredType, type DetectionDraft } from './model';

/** Largest YAML document or Python source accepted for one detection. */
export const MAX_SOURCE_BYTES = 512 * 1024;
/** Largest detection stored: the YAML as written and as read, and the Python, within a DynamoDB item (400 KB). */
export const MAX_STORED_BYTES = 350 * 1024;

export type DraftResult = { ok: true; draft: DetectionDraft; warnings: string[] } | { ok: false; problems: string[] };

export function validateDetection(yaml: string, body: string | null | undefined): DraftResult {
  if (typeof yaml !== 'string' || !yaml.trim()) return { ok: false, problems: ['The YAML document is required'] };
  if (Buffer.byteLength(yaml) > MAX_SOURCE_BYTES) return { ok: false, problems: ['The YAML document is larger than 512 KB'] };
  if (typeof body === 'string' && Buffer.byteLength(body) > MAX_SOURCE_BYTES)
    return { ok: false, problems: ['The Python source is larger than 512 KB'] };
  const source = typeof body === 'string' ? body : null;
  const repository = loadRepository([{ path: 'detection.yml', text: yaml }], () => source !== null);
  if (repository.issues.length) return { ok: false, problems: repository.issues.map((i) => i.message) };
  const item: AnalysisItem | undefined = repository.items[0];
  if (!item) return { ok: false, problems: ['The YAML document needs an AnalysisType'] };
  return draftFromItem(
    item,
    yaml,
    source,
    repository.warnings.map((w) => w.message),
  );
}

/** A loaded repository item as a draft; `body` is the text of the file its `Filename` names. */
export function draftFromItem(item: AnalysisItem, yaml: string, body: string | null, warnings: string[] = []): DraftResult {
  if (!isStoredType(item.type))
    return {
      ok: false,
      problems: [`A ${item.type.replace('_', ' ')} is not a detection, query, global helper or data model`],
    };
  if (item.filePath && body === null) return { ok: false, problems: [`The Python source named by Filename is required`] };
  if (!item.filePath && body !== null && body.trim())
    return { ok: false, problems: ['Python source was given but the YAML document names no Filename'] };
  const spec = JSON.stringify(item.spec);
  const stored = Buffer.byteLength(yaml) + Buffer.byteLength(spec) + (item.filePath && body ? Buffer.byteLength(body) : 0);
  if (stored > MAX_STORED_BYTES)
    return {
      ok: false,
      problems: [
        `The detection takes ${Math.ceil(stored / 1024)} KB stored (its YAML as written and as read, and its Python), more than ${MAX_STORED_BYTES / 1024} KB`,
      ],
    };
  return {
    ok: true,
    draft: {
      id: item.id,
      type: item.type,
      yaml,
      spec: JSON.parse(spec) as Record<string, unknown>,
      body: item.filePath ? body : null,
    },
    warnings,
  };
}

/** The YAML document's id, when it parses (for messages about documents that fail validation). */
export function documentId(yaml: string): string | undefined {
  try {
    const doc = readYaml(yaml) as Record<string, unknown> | null;
    const id = doc?.RuleID ?? doc?.PolicyID ?? doc?.GlobalID ?? doc?.DataModelID ?? doc?.QueryName;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
