import { useApolloClient } from '@apollo/client/react';
import { useCallback } from 'react';
import type { SchemaTesterProps } from '../../features/schemas/SchemaTester';
import { describingFailure } from '../../lib/apollo/apiErrors';
import type { InferSchemaInput, TestSchemaInput } from '../../lib/graphql/types';
import { INFER_SCHEMA_QUERY, TEST_SCHEMA_QUERY } from './schemas.operations';

/** Testing a spec against sample logs, and inferring one from them, through the API (never cached). */
export function useSchemaTester(): Pick<SchemaTesterProps, 'onTest' | 'onInfer'> {
  const client = useApolloClient();
  const onTest = useCallback(
    async (input: TestSchemaInput) =>
      (await describingFailure(client.query({ query: TEST_SCHEMA_QUERY, variables: { input }, fetchPolicy: 'no-cache' }))).data!
        .testSchema,
    [client],
  );
  const onInfer = useCallback(
    async (input: InferSchemaInput) =>
      (await describingFailure(client.query({ query: INFER_SCHEMA_QUERY, variables: { input }, fetchPolicy: 'no-cache' }))).data!
        .inferSchema,
    [client],
  );
  return { onTest, onInfer };
}
