import { useMutation, useQuery } from '@apollo/client/react';
import { notifications as snackbars } from '@mantine/notifications';
import { useMemo } from 'react';
import { TORQ_FLAG, availableDestinationTypes } from '../../../../core/destinations';
import { destinationInput, type DestinationFormValues } from '../../features/destinations/destinationForm';
import type { TestAlertResult } from '../../features/destinations/TestAlertAnswer';
import { describeApiError, fieldErrorsOf } from '../../lib/apollo/apiErrors';
import { SILENT } from '../../lib/apollo/createApolloClient';
import { useFeatureFlag } from '../../lib/featureFlags';
import type { DestinationFieldsFragment } from '../../lib/graphql/types';
import { CREATE_DESTINATION, DESTINATIONS_QUERY, SEND_TEST_ALERT, UPDATE_DESTINATION } from './destinations.operations';

/** Sends test alerts (to a saved destination by id, or to a form's values) and tells what the service said. */
export function useSendTestAlert() {
  const [send] = useMutation(SEND_TEST_ALERT, { context: SILENT });
  return async (target: { id?: string; values?: DestinationFormValues }): Promise<TestAlertResult | undefined> => {
    try {
      const input = { id: target.id ?? null, destination: target.values ? destinationInput(target.values) : null };
      return (await send({ variables: { input } })).data?.sendTestAlert;
    } catch (error) {
      snackbars.show({ color: 'red', title: 'Unable to send the test alert', message: describeApiError(error) });
      return undefined;
    }
  };
}

/** What the destination form needs from the API: the names taken, the types offered, saving and testing. */
export function useDestinationEditor({
  destination,
  onSaved,
}: {
  readonly destination?: DestinationFieldsFragment;
  readonly onSaved: (saved: DestinationFieldsFragment) => void;
}) {
  const torqEnabled = useFeatureFlag(TORQ_FLAG);
  const all = useQuery(DESTINATIONS_QUERY);
  const [create] = useMutation(CREATE_DESTINATION, { context: SILENT, refetchQueries: [DESTINATIONS_QUERY] });
  const [update] = useMutation(UPDATE_DESTINATION, { context: SILENT, refetchQueries: [DESTINATIONS_QUERY] });
  const sendTest = useSendTestAlert();

  const context = useMemo(
    () => ({
      torqEnabled,
      takenNames: new Set(
        (all.data?.destinations ?? []).filter((d) => d.id !== destination?.id).map((d) => d.displayName.trim().toLowerCase()),
      ),
    }),
    [torqEnabled, all.data, destination],
  );

  async function save(values: DestinationFormValues): Promise<Record<string, string> | undefined> {
    try {
      const input = destinationInput(values);
      const saved = destination
        ? (await update({ variables: { id: destination.id, input, revision: destination.revision } })).data?.updateDestination
        : (await create({ variables: { input } })).data?.createDestination;
      if (saved) {
        snackbars.show({
          color: 'green',
          message: destination ? 'Destination updated successfully' : 'Destination created successfully',
        });
        onSaved(saved);
      }
      return undefined;
    } catch (error) {
      const fieldErrors = fieldErrorsOf(error, 'displayName');
      if (!fieldErrors)
        snackbars.show({ color: 'red', title: 'Unable to save the destination', message: describeApiError(error) });
      return fieldErrors;
    }
  }

  const test = (values: DestinationFormValues) => sendTest({ id: destination?.id, values });

  return { context, types: availableDestinationTypes(torqEnabled), save, test };
}
