import { Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface CardTitleProps {
  readonly icon: ReactNode;
  readonly title: string;
}

export function CardTitle({ icon, title }: CardTitleProps) {
  return (
    <Group gap="sm" mb="md">
      <ThemeIcon variant="light" size="lg" radius="md">
        {icon}
      </ThemeIcon>
      <Title order={4}>{title}</Title>
    </Group>
  );
}

interface FieldProps {
  readonly label: string;
  readonly children: ReactNode;
  /** Identifiers read better in a monospace font. */
  readonly mono?: boolean;
}

/** One labelled value of a card; it wraps between words, splitting only a word too long for a line. */
export function Field({ label, children, mono = false }: FieldProps) {
  return (
    <Stack gap={2}>
      <Text c="dimmed" size="xs" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text component="div" size="sm" ff={mono ? 'monospace' : undefined} style={{ overflowWrap: 'break-word' }}>
        {children}
      </Text>
    </Stack>
  );
}
