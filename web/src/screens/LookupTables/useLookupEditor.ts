import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { notifications as snackbars } from '@mantine/notifications';
import { useCallback, useRef, useState } from 'react';
import type { ProviderKind } from '../../../../core/lookups/index';
import { schemaSelectors } from '../../features/lookups/schemaSelectors';
import { toLookupInput, type LookupFormValues } from '../../features/lookups/LookupTableForm';
import type { PreviewData } from '../../features/lookups/DataPreview';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { describeApiError, fieldErrorsOf } from '../../lib/apollo/apiErrors';
import type { LookupTableFieldsFragment } from '../../lib/graphql/types';
import {
  CREATE_LOOKUP_TABLE,
  CREATE_LOOKUP_UPLOAD,
  LOOKUP_LOG_TYPES_QUERY,
  LOOKUP_SCHEMA_FIELDS_QUERY,
  LOOKUP_TABLES_QUERY,
  PREVIEW_LOOKUP_UPLOAD_QUERY,
  TEST_LOOKUP_VALUE_QUERY,
  UPDATE_LOOKUP_TABLE,
} from './lookupTables.operations';

/** What the create and edit pages need: log types, selector completions, uploads with previews, saving, testing. */
export function useLookupEditor(provider?: ProviderKind | null) {
  const client = useApolloClient();
  const logTypes = useQuery(LOOKUP_LOG_TYPES_QUERY, { context: SILENT });
  const [selectors, setSelectors] = useState<Record<string, string[]>>({});
  const upload = useRef<{ uploadId: string; fileName: string }>(undefined);
  const [createUpload] = useMutation(CREATE_LOOKUP_UPLOAD, { context: SILENT });
  const [create] = useMutation(CREATE_LOOKUP_TABLE, { context: SILENT, refetchQueries: [LOOKUP_TABLES_QUERY] });
  const [update] = useMutation(UPDATE_LOOKUP_TABLE, { context: SILENT, refetchQueries: [LOOKUP_TABLES_QUERY] });

  const onLogTypeChosen = useCallback(
    (logType: string) => {
      if (selectors[logType]) return;
      void client
        .query({ query: LOOKUP_SCHEMA_FIELDS_QUERY, variables: { name: logType }, context: SILENT })
        .then((result) => setSelectors((s) => ({ ...s, [logType]: schemaSelectors(result.data?.getSchema.schema?.spec) })))
        .catch(() => setSelectors((s) => ({ ...s, [logType]: schemaSelectors(null) })));
    },
    [client, selectors],
  );

  const onFile = async (file: File, primaryKey: string, keyType: 'STRING' | 'CIDR'): Promise<PreviewData> => {
    let current = upload.current;
    if (!current || current.fileName !== file.name) {
      const made = await createUpload();
      const target = made.data!.createLookupUpload;
      const response = await fetch(target.url, { method: 'PUT', body: file });
      if (!response.ok) throw new Error(`The upload failed (${response.status})`);
      current = { uploadId: target.uploadId, fileName: file.name };
      upload.current = current;
    }
    try {
      const result = await client.query({
        query: PREVIEW_LOOKUP_UPLOAD_QUERY,
        variables: { input: { ...current, primaryKey: primaryKey || null, keyType, provider: provider ?? null } },
        context: SILENT,
        fetchPolicy: 'no-cache',
      });
      return result.data!.previewLookupUpload;
    } catch (error) {
      upload.current = undefined;
      throw new Error(fieldErrorsOf(error, 'file')?.file ?? describeApiError(error));
    }
  };

  const save = async (
    values: LookupFormValues,
    withFile: boolean,
    id?: string,
  ): Promise<LookupTableFieldsFragment | Record<string, string>> => {
    const input = toLookupInput(values, provider);
    const file = withFile && upload.current ? upload.current : null;
    try {
      if (id) {
        const result = await update({ variables: { id, input, upload: file } });
        return result.data!.updateLookupTable;
      }
      const result = await create({ variables: { input, upload: file } });
      return result.data!.createLookupTable;
    } catch (error) {
      const fields = fieldErrorsOf(error, 'name');
      if (fields) return fields;
      snackbars.show({ color: 'red', title: "Couldn't save the lookup table", message: describeApiError(error) });
      return {};
    }
  };

  const testValue = async (id: string, key: string) => {
    try {
      const result = await client.query({
        query: TEST_LOOKUP_VALUE_QUERY,
        variables: { id, key },
        context: SILENT,
        fetchPolicy: 'no-cache',
      });
      return result.data!.testLookupValue;
    } catch (error) {
      throw new Error(describeApiError(error));
    }
  };

  return {
    logTypes: logTypes.data?.listAvailableLogTypes.logTypes.map((t) => t.name) ?? [],
    selectorsFor: (logType: string) => selectors[logType] ?? [],
    onLogTypeChosen,
    onFile,
    save,
    testValue,
  };
}
