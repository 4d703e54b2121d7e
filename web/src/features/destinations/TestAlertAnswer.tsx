import { Alert, Text } from '@mantine/core';

export interface TestAlertResult {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly answer: string;
}

/** What the service answered a test alert: its status code and a short text (cut to 200 characters here). */
export function TestAlertAnswer({ result, compact = false }: { readonly result: TestAlertResult; readonly compact?: boolean }) {
  const status = result.statusCode === null ? 'No answer' : `HTTP ${result.statusCode}`;
  const text = result.answer.length > 200 ? `${result.answer.slice(0, 200)}…` : result.answer;
  if (compact) {
    return (
      <Text size="xs" c={result.ok ? 'green' : 'red'} lineClamp={2} role="status" title={result.answer}>
        {status}
        {text ? ` · ${text}` : ''}
      </Text>
    );
  }
  return (
    <Alert
      color={result.ok ? 'green' : 'red'}
      variant="light"
      role="status"
      title={result.ok ? `Test alert delivered (${status})` : `Test alert failed (${status})`}
    >
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {text || 'The service answered with an empty body.'}
      </Text>
    </Alert>
  );
}
