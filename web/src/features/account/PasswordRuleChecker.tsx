import { Group, List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { CheckIcon, CrossIcon } from '../../components/icons';
import { checkPassword } from '../../../../core/validation/password';

interface PasswordRuleCheckerProps {
  readonly password: string;
  readonly minLength: number;
}

/** Each rule of the password rule, shown passing or failing as the person types. */
export function PasswordRuleChecker({ password, minLength }: PasswordRuleCheckerProps) {
  return (
    <List spacing={4} size="sm" listStyleType="none" aria-label="Password rules">
      {checkPassword(password, minLength).map((check) => (
        <List.Item key={check.id} data-rule={check.id} data-passed={check.passed}>
          <Group gap={8} wrap="nowrap">
            <ThemeIcon size={18} radius="xl" variant="light" color={check.passed ? 'green' : 'gray'}>
              {check.passed ? <CheckIcon size={12} /> : <CrossIcon size={12} />}
            </ThemeIcon>
            <Text size="sm" c={check.passed ? undefined : 'dimmed'}>
              <VisuallyHidden>{check.passed ? 'Passed: ' : 'Not yet: '}</VisuallyHidden>
              {check.message}
            </Text>
          </Group>
        </List.Item>
      ))}
    </List>
  );
}
