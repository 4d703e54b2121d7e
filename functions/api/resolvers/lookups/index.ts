// Lookup tables and enrichment providers (graphql/lookups.graphql): thin resolvers over ../../../lib/lookups.
import type { LookupTableInput } from '../../../../core/lookups/index';
import { ApiError, invalidInput } from '../../../lib/errors';
import type * as Api from '../../../lib/graphql-types';
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
  type DataUpload,
} from '../../../lib/lookups';
import { toApiLookupPreview, toApiLookupTestResult } from '../../presenters/lookup';
import { idOf, inputOf } from '../arguments';
import { defineResolvers } from '../types';

function uploadOf(upload: Api.LookupUploadInput): DataUpload {
  const fileName = typeof upload.fileName === 'string' ? upload.fileName.trim() : '';
  if (!fileName || fileName.length > 1000) throw invalidInput({ 'upload.fileName': 'A file name is required' });
  return { uploadId: idOf(upload.uploadId, 'upload.uploadId', 100), fileName };
}

const optionalUploadOf = (upload: Api.LookupUploadInput | null | undefined) => (upload ? uploadOf(upload) : null);

/** The API's table input as the lookups area takes it (its own lists). */
const tableInputOf = (input: Api.LookupTableInput): LookupTableInput => ({
  ...input,
  source: { ...input.source },
  associations: input.associations.map((a) => ({ logType: a.logType, selectors: [...a.selectors] })),
});

async function found<T>(value: Promise<T | undefined>): Promise<T> {
  const result = await value;
  if (!result) throw new ApiError('NotFound', TABLE_NOT_FOUND);
  return result;
}

export const lookupResolvers = defineResolvers({
  'Query.lookupTables': () => listLookupTables(),
  'Query.lookupTable': (event) => found(getLookupTable(idOf(event.arguments.id))),
  'Query.lookupTableData': async (event) => toApiLookupPreview(await tablePreview(idOf(event.arguments.id))),
  'Query.previewLookupUpload': async (event) => {
    const input = inputOf(event);
    const keyType = input.keyType === 'CIDR' ? 'CIDR' : 'STRING';
    const primaryKey = typeof input.primaryKey === 'string' ? input.primaryKey : null;
    return toApiLookupPreview(await previewUpload(uploadOf(input), primaryKey, keyType, input.provider ?? null));
  },
  'Query.testLookupValue': async (event) => {
    const key = typeof event.arguments.key === 'string' ? event.arguments.key : '';
    if (!key.trim()) throw invalidInput({ key: 'Enter a value to test' });
    if (key.length > 1000) throw invalidInput({ key: 'Must be at most 1000 characters' });
    return toApiLookupTestResult(await testLookupValue(idOf(event.arguments.id), key));
  },
  'Mutation.createLookupUpload': () => newUpload(),
  'Mutation.createLookupTable': (event, caller) =>
    createLookupTable(tableInputOf(inputOf(event)), optionalUploadOf(event.arguments.upload), caller),
  'Mutation.updateLookupTable': (event, caller) =>
    updateLookupTable(idOf(event.arguments.id), tableInputOf(inputOf(event)), optionalUploadOf(event.arguments.upload), caller),
  'Mutation.deleteLookupTable': async (event) => {
    if (!(await deleteLookupTable(idOf(event.arguments.id)))) throw new ApiError('NotFound', TABLE_NOT_FOUND);
    return true;
  },
  'Mutation.refreshLookupTable': (event) => found(refreshLookupTable(idOf(event.arguments.id))),
});
