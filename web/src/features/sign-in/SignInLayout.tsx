import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from '../../components/Logo';
import classes from './SignInLayout.module.css';

interface SignInLayoutProps {
  readonly children: ReactNode;
  /** A line under the card, such as the product version. */
  readonly footer?: ReactNode;
  /** A wider card, for authenticator setup (QR code and key). */
  readonly wide?: boolean;
}

/** The frame of the anonymous screens: the logo over a single card, centred on a quiet backdrop. */
export function SignInLayout({ children, footer, wide = false }: SignInLayoutProps) {
  return (
    <Box className={classes.backdrop}>
      <Center mih="100vh" p="md">
        <Stack w="100%" maw={wide ? 480 : 420} gap="xl" align="stretch">
          <Center>
            <Logo size={40} />
          </Center>
          <Paper withBorder shadow="xl" radius="lg" p={32} className={classes.card}>
            {children}
          </Paper>
          {footer && (
            <Text c="dimmed" size="xs" ta="center">
              {footer}
            </Text>
          )}
        </Stack>
      </Center>
    </Box>
  );
}
