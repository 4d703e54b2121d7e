// The detections API: list, read, create, update, enable/disable, delete, run unit tests, bulk upload.
// The permission map lets in anyone with a Rule or Policy permission; each resolver then checks the item's
// own area (policies: Policy*, everything else: Rule*), so neither side reaches the other's items.
import { withImpliedReads, type Permission } from '../../../../core/permissions';
import { readYaml } from '../../../../core/yaml';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth/caller';
import { bulkUpload, BulkUploadError, MAX_ZIP_BYTES, readZip, ZIP_TOO_LARGE } from '../../../lib/detections/bulk';
import { lambdaEngine } from '../../../lib/detections/engine';
import {
  permissionArea,
  STORED_TYPES,
  type DetectionDraft,
  type StoredDetection,
  type StoredType,
} from '../../../lib/detections/model';
import {
  deleteDetection,
  DetectionConflict,
  getDetection,
  getDetectionVersion,
  listDetections,
  saveDetection,
  setDetectionEnabled,
} from '../../../lib/detections/repository';
import { checkDrafts, knownLogTypes } from '../../../lib/detections/save-checks';
import { runDetectionTests, UnrunnableTests } from '../../../lib/detections/unit-tests';
import { validateDetection } from '../../../lib/detections/validate';
import { ApiError } from '../../../lib/errors';
import type { ResolverMap } from '../types';
import { GRAPHQL_TO_TYPE, toGraphql, TYPE_TO_GRAPHQL } from './shape';

export const DETECTION_NOT_FOUND = 'Detection not found';

type Args = Record<string, unknown>;

const permissionsOf = (caller: Caller) => new Set<Permission>(withImpliedReads(caller.permissions));
const mayRead = (caller: Caller, type: StoredType) => permissionsOf(caller).has(`${permissionArea(type)}Read` as Permission);
const mayModify = (caller: Caller, type: StoredType) => permissionsOf(caller).has(`${permissionArea(type)}Modify` as Permission);

function requireModify(caller: Caller, type: StoredType) {
  if (!mayModify(caller, type))
    throw new ApiError('Unauthorized', `You do not have permission to modify ${type === 'policy' ? 'policies' : 'rules'}`);
}

const inputOf = (event: AppSyncResolverEvent<Args>): Args => {
  const input = event.arguments.input;
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ApiError('InvalidInput', 'input is required');
  return input as Args;
};

function idOf(value: unknown): string {
  if (typeof value !== 'string' || !value.trim() || value.length > 1000) throw new ApiError('InvalidInput', 'id is required');
  return value;
}

export function pageSizeOf(value: unknown): number {
  if (value === undefined || value === null) return 25;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 999)
    throw new ApiError('InvalidInput', 'pageSize must be a whole number from 1 to 999');
  return value;
}

export const encodeCursor = (position: string) => Buffer.from(position, 'utf8').toString('base64url');
export function decodeCursor(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 4000 || !/^[A-Za-z0-9_-]+$/.test(value))
    throw new ApiError('InvalidInput', 'cursor is not valid');
  return Buffer.from(value, 'base64url').toString('utf8');
}

/** A detection the caller may read, or NotFound (an unreadable item is not acknowledged). */
async function readable(caller: Caller, id: string, version?: number): Promise<StoredDetection> {
  const found = version === undefined ? await getDetection(id) : await getDetectionVersion(id, version);
  if (!found || !mayRead(caller, found.type)) throw new ApiError('NotFound', DETECTION_NOT_FOUND);
  return found;
}

async function detections(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const input = inputOf(event);
  const requested = input.types === undefined || input.types === null ? [] : input.types;
  if (!Array.isArray(requested)) throw new ApiError('InvalidInput', 'types must be a list');
  const types = (requested.length ? requested : STORED_TYPES.map((t) => TYPE_TO_GRAPHQL[t])).map((t) => {
    const type = GRAPHQL_TO_TYPE[String(t)];
    if (!type) throw new ApiError('InvalidInput', `Unknown detection type ${String(t)}`);
    return type;
  });
  const allowed = types.filter((t) => mayRead(caller, t));
  if (input.enabled !== undefined && input.enabled !== null && typeof input.enabled !== 'boolean')
    throw new ApiError('InvalidInput', 'enabled must be true or false');
  for (const field of ['logType', 'search'] as const) {
    const value = input[field];
    if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 200))
      throw new ApiError('InvalidInput', `${field} must be text of at most 200 characters`);
  }
  const after = decodeCursor(input.cursor);
  const pageSize = pageSizeOf(input.pageSize);
  const page = allowed.length
    ? await listDetections(
        {
          types: allowed,
          enabled: typeof input.enabled === 'boolean' ? input.enabled : undefined,
          logType: (input.logType as string | null) ?? undefined,
          search: (input.search as string | null) ?? undefined,
        },
        pageSize,
        after,
      )
    : { items: [], next: null };
  const edges = page.items.map((d) => ({ node: toGraphql(d), cursor: encodeCursor(d.id) }));
  return {
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
      hasNextPage: page.next !== null,
      hasPreviousPage: after !== undefined,
    },
  };
}

function validated(input: Args) {
  if (typeof input.yaml !== 'string') throw new ApiError('InvalidInput', 'yaml is required');
  if (input.body !== undefined && input.body !== null && typeof input.body !== 'string')
    throw new ApiError('InvalidInput', 'body must be text');
  const result = validateDetection(input.yaml, input.body as string | null | undefined);
  if (!result.ok) throw new ApiError('InvalidInput', result.problems.join('; '));
  return result.draft;
}

/** Refuses a draft that fails the save checks; `current` is the stored version an update replaces. */
async function refuseUnsaveable(draft: DetectionDraft, current: StoredDetection | null) {
  const context = { knownLogTypes: await knownLogTypes(current?.logTypes), engine: lambdaEngine };
  const problems = (await checkDrafts([draft], context)).get(draft.id);
  if (problems) throw new ApiError('InvalidInput', problems.join('; '));
}

function conflictError(err: unknown): never {
  if (err instanceof DetectionConflict) {
    if (err.reason === 'exists') throw new ApiError('AlreadyExists', err.message);
    if (err.reason === 'missing') throw new ApiError('NotFound', DETECTION_NOT_FOUND);
    throw new ApiError('RevisionConflict', err.message);
  }
  throw err;
}

async function createDetection(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const draft = validated(inputOf(event));
  requireModify(caller, draft.type);
  await refuseUnsaveable(draft, null);
  try {
    return toGraphql(await saveDetection(draft, caller.email || caller.id, 0));
  } catch (err) {
    conflictError(err);
  }
}

async function updateDetection(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const input = inputOf(event);
  const draft = validated(input);
  requireModify(caller, draft.type);
  const current = await getDetection(draft.id);
  if (!current || !mayRead(caller, current.type)) throw new ApiError('NotFound', DETECTION_NOT_FOUND);
  requireModify(caller, current.type);
  await refuseUnsaveable(draft, current);
  const version = input.versionId;
  if (version !== undefined && version !== null && (typeof version !== 'number' || !Number.isInteger(version)))
    throw new ApiError('InvalidInput', 'versionId must be a whole number');
  try {
    return toGraphql(
      await saveDetection(draft, caller.email || caller.id, typeof version === 'number' ? version : current.version),
    );
  } catch (err) {
    conflictError(err);
  }
}

async function setEnabled(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const input = inputOf(event);
  const current = await readable(caller, idOf(input.id));
  if (typeof input.enabled !== 'boolean') throw new ApiError('InvalidInput', 'enabled must be true or false');
  requireModify(caller, current.type);
  try {
    return toGraphql(await setDetectionEnabled(current.id, input.enabled, caller.email || caller.id));
  } catch (err) {
    conflictError(err);
  }
}

async function remove(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const current = await readable(caller, idOf(event.arguments.id));
  requireModify(caller, current.type);
  await deleteDetection(current.id);
  return { id: current.id };
}

async function runTests(event: AppSyncResolverEvent<Args>, caller: Caller) {
  const input = inputOf(event);
  const detection = await readable(caller, idOf(input.id));
  // Tests run the detection's code with mocks patched into it: running code needs Modify of its kind.
  requireModify(caller, detection.type);
  // A derived rule without tests of its own runs its base's tests, as the reference tool does.
  const baseId = detection.spec.BaseDetection;
  const base = !Array.isArray(detection.spec.Tests) && typeof baseId === 'string' ? await getDetection(baseId) : null;
  const saved = detection.spec.Tests ?? base?.spec.Tests;
  let tests: unknown[] = Array.isArray(saved) ? (saved as unknown[]) : [];
  if (input.testsYaml !== undefined && input.testsYaml !== null) {
    if (typeof input.testsYaml !== 'string' || input.testsYaml.length > 512 * 1024)
      throw new ApiError('InvalidInput', 'testsYaml must be YAML text of at most 512 KB');
    let parsed: unknown;
    try {
      parsed = readYaml(input.testsYaml);
    } catch (err) {
      throw new ApiError('InvalidInput', `Invalid test: ${(err as Error).message.split('\n')[0]}`);
    }
    if (!Array.isArray(parsed)) throw new ApiError('InvalidInput', 'Invalid test: expected a YAML list of tests');
    const names = parsed.map((t) => (t && typeof t === 'object' ? (t as Args).Name : undefined));
    if (names.some((n) => typeof n !== 'string' || !n.trim()))
      throw new ApiError('InvalidInput', 'Invalid test: every test needs a Name');
    if (new Set(names).size !== names.length) throw new ApiError('InvalidInput', 'No duplicate test names');
    tests = parsed;
  }
  try {
    return await runDetectionTests(detection, tests, lambdaEngine);
  } catch (err) {
    if (err instanceof UnrunnableTests) throw new ApiError('InvalidInput', `The tests could not run: ${err.message}`);
    throw err;
  }
}

function zipOf(input: Args): Uint8Array {
  const data = input.data;
  if (typeof data !== 'string' || !data) throw new ApiError('InvalidInput', 'data is required (the zip file, base64 encoded)');
  if (data.length > Math.ceil((MAX_ZIP_BYTES * 4) / 3) + 4) throw new ApiError('InvalidInput', ZIP_TOO_LARGE);
  const compact = data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1)
    throw new ApiError('InvalidInput', 'data is not valid base64');
  return Buffer.from(compact, 'base64');
}

function bulk(validateOnly: boolean) {
  return async (event: AppSyncResolverEvent<Args>, caller: Caller) => {
    const zip = zipOf(inputOf(event));
    try {
      const report = await bulkUpload(readZip(zip), {
        validateOnly,
        user: caller.email || caller.id,
        mayModify: (type) => mayModify(caller, type),
        engine: lambdaEngine,
      });
      return {
        totals: report.totals,
        fileIssues: report.fileIssues,
        items: report.items.map((i) => ({ ...i, analysisType: TYPE_TO_GRAPHQL[i.type] })),
      };
    } catch (err) {
      if (err instanceof BulkUploadError) throw new ApiError('InvalidInput', err.message);
      throw err;
    }
  };
}

export const detectionResolvers: ResolverMap = {
  'Query.detections': detections,
  'Query.detection': async (event, caller) => {
    try {
      return toGraphql(await readable(caller, idOf(event.arguments.id)));
    } catch (err) {
      if (err instanceof ApiError && err.errorType === 'NotFound') return null;
      throw err;
    }
  },
  'Query.detectionVersion': async (event, caller) => {
    const version = event.arguments.version;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
      throw new ApiError('InvalidInput', 'version must be a whole number from 1');
    try {
      return toGraphql(await readable(caller, idOf(event.arguments.id), version));
    } catch (err) {
      if (err instanceof ApiError && err.errorType === 'NotFound') return null;
      throw err;
    }
  },
  'Mutation.createDetection': createDetection,
  'Mutation.updateDetection': updateDetection,
  'Mutation.setDetectionEnabled': setEnabled,
  'Mutation.deleteDetection': remove,
  'Mutation.runDetectionTests': runTests,
  'Mutation.validateBulkUpload': bulk(true),
  'Mutation.bulkUpload': bulk(false),
};
