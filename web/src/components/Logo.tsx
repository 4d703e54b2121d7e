import { Group, Text } from '@mantine/core';

interface CaracalMarkProps {
  readonly size?: number;
}

/** The Caracal mark: a lynx-like head with tufted ears, in the product's amber. */
export function CaracalMark({ size = 32 }: CaracalMarkProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" role="img" aria-label="Caracal logo">
      <rect width="64" height="64" rx="14" fill="var(--mantine-color-dark-8)" />
      <path d="M14 10 L25 24 H39 L50 10 L52 34 C52 46 43 55 32 55 C21 55 12 46 12 34 Z" fill="var(--mantine-color-caracal-6)" />
      <path d="M24 36 L29 39 M40 36 L35 39" stroke="var(--mantine-color-dark-8)" strokeWidth="3.5" strokeLinecap="round" />
      <path
        d="M28 46 L32 49 L36 46"
        fill="none"
        stroke="var(--mantine-color-dark-8)"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

interface LogoProps {
  readonly size?: number;
}

/** The mark with the product's name beside it. */
export function Logo({ size = 32 }: LogoProps) {
  return (
    <Group gap={10} wrap="nowrap">
      <CaracalMark size={size} />
      <Text component="span" fw={700} fz={size * 0.6} lh={1} style={{ letterSpacing: '0.02em' }}>
        Caracal
      </Text>
    </Group>
  );
}
