// Lookup tables and enrichment providers (graphql/lookups.graphql): thin resolvers over ../../../lib/lookups.
import type { LookupTableInput } from '../../../../core/lookups/index';
import type { AppSyncResolverEvent } from '../../../lib/appsync';
import type { Caller } from '../../../lib/auth';
import { ApiError, invalidInput } from '../../../lib/errors';
import {
  TABLE_NOT_FOUND,
  createLookupTable,
  deleteLookupTable,
  getLookupTable,
  listLookupTables,
  newUpload,
  previewUpload,
  refreshLookupTable,
  tablePreview,
  testLookupValue,
  updateLookupTable,
  type DataPreview,
  type DataUpload,
} from '../../../lib/lookups';
import { idOf, inputOf, type Args } from '../arguments';
import type { ResolverMap } from '../types';

type WithId = { id?: unknown };

function uploadOf(value: unknown): DataUpload | null {
  if (value === undefined || value === null) return null;
  const upload = value as Args;
  const fileName = typeof upload.fileName === 'string' ? upload.fileName.trim() : '';
  if (!fileName || fileName.length > 1000) throw invalidInput({ 'upload.fileName': 'A file name is required' });
  return { uploadId: idOf(upload.uploadId, 'upload.uploadId', 100), fileName };
}

const previewView = (preview: DataPreview) => ({ ...preview, rows: preview.rows.map((row) => JSON.stringify(row)) });

async function found<T>(value: Promise<T | undefined>): Promise<T> {
  const result = await value;
  if (!result) throw new ApiError('NotFound', TABLE_NOT_FOUND);
  return result;
}

export const lookupResolvers: ResolverMap = {
  'Query.lookupTables': async () => listLookupTables(),
  'Query.lookupTable': async (event: AppSyncResolverEvent<WithId>) => found(getLookupTable(idOf(event.arguments.id))),
  'Query.lookupTableData': async (event: AppSyncResolverEvent<WithId>) =>
    previewView(await tablePreview(idOf(event.arguments.id))),
  'Query.previewLookupUpload': async (event: AppSyncResolverEvent<{ input?: unknown }>) => {
    const input = inputOf(event);
    const keyType = input.keyType === 'CIDR' ? 'CIDR' : 'STRING';
    const primaryKey = typeof input.primaryKey === 'string' ? input.primaryKey : null;
    return previewView(
      await previewUpload(uploadOf(input)!, primaryKey, keyType, (input.provider as LookupTableInput['provider']) ?? null),
    );
  },
  'Query.testLookupValue': async (event: AppSyncResolverEvent<WithId & { key?: unknown }>) => {
    const key = typeof event.arguments.key === 'string' ? event.arguments.key : '';
    if (!key.trim()) throw invalidInput({ key: 'Enter a value to test' });
    if (key.length > 1000) throw invalidInput({ key: 'Must be at most 1000 characters' });
    const result = await testLookupValue(idOf(event.arguments.id), key);
    return { matched: result.matched, row: result.row && JSON.stringify(result.row) };
  },
  'Mutation.createLookupUpload': async () => newUpload(),
  'Mutation.createLookupTable': async (event: AppSyncResolverEvent<{ input?: unknown; upload?: unknown }>, caller: Caller) =>
    createLookupTable(inputOf(event) as unknown as LookupTableInput, uploadOf(event.arguments.upload), caller),
  'Mutation.updateLookupTable': async (
    event: AppSyncResolverEvent<WithId & { input?: unknown; upload?: unknown }>,
    caller: Caller,
  ) =>
    updateLookupTable(
      idOf(event.arguments.id),
      inputOf(event) as unknown as LookupTableInput,
      uploadOf(event.arguments.upload),
      caller,
    ),
  'Mutation.deleteLookupTable': async (event: AppSyncResolverEvent<WithId>) => {
    if (!(await deleteLookupTable(idOf(event.arguments.id)))) throw new ApiError('NotFound', TABLE_NOT_FOUND);
    return true;
  },
  'Mutation.refreshLookupTable': async (event: AppSyncResolverEvent<WithId>) =>
    found(refreshLookupTable(idOf(event.arguments.id))),
};
