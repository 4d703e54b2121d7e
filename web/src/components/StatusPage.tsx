import { Center, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface StatusPageProps {
  /** The large code shown above the title, such as 404 or 500. */
  readonly code?: string;
  readonly title: string;
  readonly description: ReactNode;
  readonly children?: ReactNode;
  /** Full-screen when shown outside the application shell. */
  readonly fullScreen?: boolean;
}

/** The common layout of the error pages: a large status code, a title, a line of help and actions. */
export function StatusPage({ code, title, description, children, fullScreen = false }: StatusPageProps) {
  return (
    <Center mih={fullScreen ? '100vh' : '60vh'} p="xl">
      <Stack align="center" gap="md" maw={560} ta="center">
        {code && (
          <Text
            aria-hidden="true"
            fw={800}
            fz={96}
            lh={1}
            variant="gradient"
            gradient={{ from: 'caracal.4', to: 'caracal.8', deg: 135 }}
          >
            {code}
          </Text>
        )}
        <Title order={2}>{title}</Title>
        {typeof description === 'string' ? <Text c="dimmed">{description}</Text> : description}
        {children}
      </Stack>
    </Center>
  );
}
