// The generic validation messages, and the control-character rule for user text. Every
// rule module in core uses these, so a message is written once.

export const FIELD_REQUIRED = 'This field is required';
export const NO_DUPLICATES = 'No duplicates allowed';
export const tooLong = (max: number) => `Must be at most ${max} characters`;
export const tooShort = (min: number) => `Must be at least ${min} characters`;

export const CONTROL_CHARACTERS = 'Must not contain control characters';

// eslint-disable-next-line no-control-regex -- control characters are what the rule finds
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- control characters are what the rule finds
const CONTROL_BUT_LINE_BREAKS_AND_TABS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Control characters in a value; multi-line text may hold line breaks and tabs. */
export function hasControlCharacters(value: string, options: { readonly multiLine?: boolean } = {}): boolean {
  return (options.multiLine ? CONTROL_BUT_LINE_BREAKS_AND_TABS : ANY_CONTROL).test(value);
}
