// `correlation-rules/{id}/?alert={alertId}`: the step-by-step view of an alert a correlation rule raised, its
// events (the matched signals) replayed through the one evaluator with the rule's body.
import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { Alert, Loader, Modal, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { evaluateCorrelation } from '../../../../core/correlation';
import { parseCorrelationBody } from '../../../../core/detections/correlation';
import { readYaml } from '../../../../core/yaml';
import { CorrelationStepByStep } from '../../features/correlation/CorrelationStepByStep';
import { signalsFromAlertEvents } from '../../features/correlation/correlationDocument';
import { describeApiError } from '../../lib/apollo/apiErrors';

const ALERT_SIGNALS_QUERY = gql`
  query CorrelationAlertSignals($input: AlertEventsInput!) {
    alertEvents(input: $input) {
      edges {
        node
      }
    }
  }
`;

export function CorrelationAlertReplay({ body }: { readonly body: string }) {
  const [params, setParams] = useSearchParams();
  const alertId = params.get('alert');
  const { data, loading, error } = useQuery<{ alertEvents: { edges: { node: unknown }[] } }>(ALERT_SIGNALS_QUERY, {
    variables: { input: { alertId: alertId ?? '', pageSize: 999 } },
    skip: !alertId,
  });
  const result = useMemo(() => {
    if (!data) return null;
    try {
      const { signals, skipped } = signalsFromAlertEvents(data.alertEvents.edges.map((e) => e.node));
      const evaluation = evaluateCorrelation(parseCorrelationBody(readYaml(body)), signals, { complete: true });
      return { evaluation, skipped };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }, [data, body]);
  if (!alertId) return null;
  const close = () => {
    const next = new URLSearchParams(params);
    next.delete('alert');
    setParams(next, { replace: true });
  };
  return (
    <Modal opened onClose={close} size={820} title={`Why alert ${alertId} matched`}>
      {loading && <Loader size="sm" />}
      {error && <Alert color="red">{describeApiError(error)}</Alert>}
      {result && 'error' in result && <Alert color="red">{result.error}</Alert>}
      {result && 'evaluation' in result && result.evaluation && (
        <>
          {result.skipped > 0 && (
            <Text size="xs" c="dimmed" mb="xs">
              {result.skipped} event(s) without a rule id or time were left out.
            </Text>
          )}
          <CorrelationStepByStep evaluation={result.evaluation} />
        </>
      )}
    </Modal>
  );
}
