import { Center, Loader, Stack } from '@mantine/core';
import { CaracalMark } from './Logo';

/** The logo placeholder shown while the app starts or the session is being read. */
export function SplashScreen() {
  return (
    <Center h="100vh" role="status" aria-label="Loading Caracal">
      <Stack align="center" gap="lg">
        <CaracalMark size={64} />
        <Loader type="dots" size="sm" />
      </Stack>
    </Center>
  );
}
