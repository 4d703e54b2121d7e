import { Center, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { InboxIcon } from './icons';

interface EmptyResultsProps {
  readonly title?: string;
  /** A line on why nothing shows, or what to try. */
  readonly description?: ReactNode;
  /** Actions such as "Clear filters". */
  readonly children?: ReactNode;
}

/** A list, table or search with nothing to show. */
export function EmptyResults({ title = 'No Results', description, children }: EmptyResultsProps) {
  return (
    <Center py="xl" role="status">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <ThemeIcon variant="light" color="gray" size={48} radius="xl">
          <InboxIcon size={24} />
        </ThemeIcon>
        <Text fw={600}>{title}</Text>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        {children}
      </Stack>
    </Center>
  );
}
