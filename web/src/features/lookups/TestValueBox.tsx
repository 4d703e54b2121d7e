import { Alert, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { jsonObject } from './DataPreview';

export interface TestOutcome {
  readonly matched: boolean;
  readonly row: unknown;
}

/** "Test a value": which row of the table a key matches (exact, or the longest CIDR prefix). */
export function TestValueBox({
  keyType,
  onTest,
}: {
  readonly keyType: 'STRING' | 'CIDR';
  readonly onTest: (key: string) => Promise<TestOutcome>;
}) {
  const [key, setKey] = useState('');
  const [outcome, setOutcome] = useState<TestOutcome & { key: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!key.trim()) {
      setError('Enter a value to test');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      setOutcome({ ...(await onTest(key.trim())), key: key.trim() });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end">
        <TextInput
          label="Test a value"
          description={
            keyType === 'CIDR' ? 'An IPv4 or IPv6 address: the longest matching network answers' : 'A primary key value'
          }
          placeholder={keyType === 'CIDR' ? '203.0.113.7' : 'value'}
          value={key}
          error={error}
          onChange={(e) => setKey(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void run();
          }}
          w={360}
        />
        <Button variant="light" onClick={() => void run()} loading={busy}>
          Test
        </Button>
      </Group>
      {outcome && (
        <Alert
          color={outcome.matched ? 'green' : 'gray'}
          title={outcome.matched ? `${outcome.key} matches a row` : `${outcome.key} matches no row`}
        >
          {outcome.row ? (
            <Code block>{JSON.stringify(jsonObject(outcome.row), null, 2)}</Code>
          ) : (
            <Text size="sm">Events with this value get no enrichment from this table.</Text>
          )}
        </Alert>
      )}
    </Stack>
  );
}
