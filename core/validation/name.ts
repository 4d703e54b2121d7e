// The specification's rule for names and labels: required, alphanumeric characters, dashes and spaces
// only, at most 36 characters. Role names follow it.
import { FIELD_REQUIRED } from './generic';

export const NAME_CHARACTERS = 'Can only include alphanumeric characters, dashes and spaces';
export const NAME_MAX_LENGTH = 36;
export const NAME_TOO_LONG = `Must be at most ${NAME_MAX_LENGTH} characters`;

const NAME_PATTERN = /^[A-Za-z0-9 -]+$/;

/** The name's first broken rule, or undefined when it follows the rule. Surrounding spaces do not count. */
export function nameError(value: unknown): string | undefined {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') return FIELD_REQUIRED;
  if (!NAME_PATTERN.test(name)) return NAME_CHARACTERS;
  if (name.length > NAME_MAX_LENGTH) return NAME_TOO_LONG;
  return undefined;
}
