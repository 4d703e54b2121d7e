import { Group, Progress, Text } from '@mantine/core';
import { passwordStrength } from '../../../../core/validation/password-strength';

const COLORS = ['red', 'red', 'orange', 'yellow', 'green'] as const;

interface PasswordStrengthMeterProps {
  readonly password: string;
  readonly minLength: number;
}

/** How hard the new password would be to guess, as a bar and a word (core's passwordStrength). */
export function PasswordStrengthMeter({ password, minLength }: PasswordStrengthMeterProps) {
  const strength = passwordStrength(password, minLength);
  return (
    <div>
      <Progress
        value={password === '' ? 0 : ((strength.score + 1) / 5) * 100}
        color={COLORS[strength.score]}
        size="sm"
        aria-label="Password strength"
        aria-valuetext={strength.label}
        transitionDuration={150}
      />
      <Group justify="space-between" mt={4}>
        <Text size="xs" c="dimmed">
          Password strength
        </Text>
        <Text size="xs" fw={600} c={password === '' ? 'dimmed' : COLORS[strength.score]} data-testid="password-strength">
          {password === '' ? '—' : strength.label}
        </Text>
      </Group>
    </div>
  );
}
