import { Card, Group, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useMemo, useState } from 'react';
import { DESTINATION_TYPE_INFO, type DestinationType } from '../../../../core/destinations';
import { EmptyResults } from '../../components/EmptyResults';
import { DestinationTypeIcon } from './DestinationTypeIcon';

/** Whether a type matches what was typed: its title, id, description or search terms, every word. */
export function typeMatches(type: DestinationType, query: string): boolean {
  const info = DESTINATION_TYPE_INFO[type];
  const text = [info.title, info.type, info.description, ...info.searchTerms].join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

/** The searchable grid of destination types; choosing one opens its form. */
export function DestinationTypeChooser({
  types,
  onChoose,
}: {
  readonly types: readonly DestinationType[];
  readonly onChoose: (type: DestinationType) => void;
}) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => types.filter((type) => typeMatches(type, query)), [types, query]);
  return (
    <Stack gap="md">
      <TextInput
        label="Search destinations"
        placeholder="Slack, PagerDuty, webhook…"
        value={query}
        onChange={(event) => setQuery(event.currentTarget.value)}
        maw={420}
      />
      {shown.length === 0 ? (
        <EmptyResults title="No destination types match" description="Try another name, or a custom webhook." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" role="list" aria-label="Destination types">
          {shown.map((type) => {
            const info = DESTINATION_TYPE_INFO[type];
            return (
              <UnstyledButton key={type} role="listitem" onClick={() => onChoose(type)} aria-label={info.title}>
                <Card withBorder radius="md" padding="md" h="100%">
                  <Group gap="sm" wrap="nowrap" align="flex-start">
                    <DestinationTypeIcon type={type} size={36} />
                    <div>
                      <Text fw={600}>{info.title}</Text>
                      <Text size="sm" c="dimmed">
                        {info.description}
                      </Text>
                    </div>
                  </Group>
                </Card>
              </UnstyledButton>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
