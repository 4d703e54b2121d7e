import { useMutation, useQuery } from '@apollo/client/react';
import { notifications as snackbars } from '@mantine/notifications';
import { useMemo } from 'react';
import { transportToApi, type CreatableTransport } from '../../../../core/log-sources/types';
import {
  httpInput,
  s3Input,
  sqsInput,
  type LogSourceChoices,
  type LogSourceFormValues,
} from '../../features/log-sources/logSourceForm';
import { describeApiError, fieldErrorsOf } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import type { LogSourceFieldsFragment, LogSourceTransport } from '../../lib/graphql/types';
import {
  AVAILABLE_LOG_TYPES_QUERY,
  CREATE_HTTP_LOG_SOURCE,
  CREATE_S3_LOG_SOURCE,
  CREATE_SQS_LOG_SOURCE,
  LOG_SOURCES_QUERY,
  UPDATE_HTTP_LOG_SOURCE,
  UPDATE_S3_LOG_SOURCE,
  UPDATE_SQS_LOG_SOURCE,
} from './logSources.operations';

interface LogSourceEditorOptions {
  /** Nothing is read until a transport is chosen. */
  readonly transport: CreatableTransport | null;
  /** Editing this source; creating when absent. */
  readonly source?: LogSourceFieldsFragment;
  readonly onSaved: (source: LogSourceFieldsFragment) => void;
}

export interface LogSourceEditor {
  readonly choices: LogSourceChoices;
  /** Creates or updates the source; answers the server's refusals by field (anything else shows as a snackbar). */
  readonly save: (values: LogSourceFormValues) => Promise<Record<string, string> | undefined>;
}

/** What the log source form needs from the API: the log types to offer, the labels taken, and saving. */
export function useLogSourceEditor({ transport, source, onSaved }: LogSourceEditorOptions): LogSourceEditor {
  const logTypes = useQuery(AVAILABLE_LOG_TYPES_QUERY, { skip: !transport });
  const sameTransport = useQuery(LOG_SOURCES_QUERY, {
    variables: { input: { transport: transport ? (transportToApi(transport) as LogSourceTransport) : null, first: 100 } },
    skip: !transport,
  });
  const refetchQueries = [LOG_SOURCES_QUERY];
  const [createS3] = useMutation(CREATE_S3_LOG_SOURCE, { context: SILENT, refetchQueries });
  const [updateS3] = useMutation(UPDATE_S3_LOG_SOURCE, { context: SILENT });
  const [createSqs] = useMutation(CREATE_SQS_LOG_SOURCE, { context: SILENT, refetchQueries });
  const [updateSqs] = useMutation(UPDATE_SQS_LOG_SOURCE, { context: SILENT });
  const [createHttp] = useMutation(CREATE_HTTP_LOG_SOURCE, { context: SILENT, refetchQueries });
  const [updateHttp] = useMutation(UPDATE_HTTP_LOG_SOURCE, { context: SILENT });

  const available = logTypes.data?.listAvailableLogTypes;
  const choices = useMemo(
    (): LogSourceChoices => ({
      logTypes: available?.logTypes ?? [],
      crowdstrikeFdrEnabled: available?.crowdstrikeFdrEnabled ?? false,
      takenLabels: new Set(
        (sameTransport.data?.logSources.edges ?? [])
          .map((e) => e.node)
          .filter((s) => s.id !== source?.id)
          .map((s) => s.label.trim().toLowerCase()),
      ),
    }),
    [available, sameTransport.data, source],
  );

  async function save(values: LogSourceFormValues): Promise<Record<string, string> | undefined> {
    try {
      let saved: LogSourceFieldsFragment | undefined;
      if (values.transport === 'aws-s3') {
        const input = s3Input(values);
        saved = source
          ? (await updateS3({ variables: { id: source.id, input } })).data?.updateS3LogSource
          : (await createS3({ variables: { input } })).data?.createS3LogSource;
      } else if (values.transport === 'aws-sqs') {
        const input = sqsInput(values);
        saved = source
          ? (await updateSqs({ variables: { id: source.id, input } })).data?.updateSqsLogSource
          : (await createSqs({ variables: { input } })).data?.createSqsLogSource;
      } else {
        const input = httpInput(values);
        saved = source
          ? (await updateHttp({ variables: { id: source.id, input } })).data?.updateHttpLogSource
          : (await createHttp({ variables: { input } })).data?.createHttpLogSource;
      }
      if (saved) {
        snackbars.show({
          color: 'green',
          message: source ? 'Log source updated successfully' : 'Log source created successfully',
        });
        onSaved(saved);
      }
      return undefined;
    } catch (error) {
      const fieldErrors = fieldErrorsOf(error, 'label');
      if (!fieldErrors)
        snackbars.show({ color: 'red', title: 'Unable to save the log source', message: describeApiError(error) });
      return fieldErrors;
    }
  }

  return { choices, save };
}
