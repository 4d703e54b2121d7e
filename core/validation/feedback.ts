// The feedback form's rules: the text is required, usefulness is optional and 1 to 5. The feature is
// picked from the product's areas. The limits keep a stored item small and free of control characters; their
// messages follow the specification's "Must be at most N characters" wording.
import { CONTROL_CHARACTERS, FIELD_REQUIRED, hasControlCharacters, tooLong } from './generic';

export const FEEDBACK_TEXT_REQUIRED = FIELD_REQUIRED;
export const FEATURE_REQUIRED = 'Choose the part of Caracal your feedback is about';
export const USEFULNESS_RANGE = 'Usefulness must be a whole number from 1 to 5';
export const LOCATION_URL_INVALID = 'Must be the address of a page of Caracal';
export const SCREEN_WIDTH_INVALID = 'Must be a screen width in pixels';

export const USEFULNESS_MIN = 1;
export const USEFULNESS_MAX = 5;
export const FEEDBACK_TEXT_MAX_LENGTH = 5000;
export const FEATURE_NAME_MAX_LENGTH = 100;
export const LOCATION_URL_MAX_LENGTH = 2048;
/** Wider than any display made (the specification's largest breakpoint is 3840 px). */
export const SCREEN_WIDTH_MAX = 100_000;

/** The areas a user can give feedback on, offered by the form. */
export const FEEDBACK_FEATURES = [
  'General',
  'Dashboards',
  'Alerts',
  'Search',
  'Data Explorer',
  'Cloud Resources',
  'Detections',
  'Log Sources',
  'Schemas',
  'Alert Destinations',
  'Lookup Tables',
  'Enrichment Providers',
  'Notifications',
  'Users and Roles',
  'Settings',
] as const;

/** Feedback as the form and the API carry it (`feature.name`, `feedback.text`, usefulness, location, width). */
export interface FeedbackInput {
  readonly feature: { readonly name: string };
  readonly feedback: { readonly text: string };
  readonly usefulness: number | null;
  readonly locationUrl: string;
  readonly screenWidth: number;
}

export type FeedbackField = 'feature' | 'text' | 'usefulness' | 'locationUrl' | 'screenWidth';
export type FeedbackErrors = Partial<Record<FeedbackField, string>>;

export function feedbackTextError(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return FEEDBACK_TEXT_REQUIRED;
  if (text.length > FEEDBACK_TEXT_MAX_LENGTH) return tooLong(FEEDBACK_TEXT_MAX_LENGTH);
  if (hasControlCharacters(text, { multiLine: true })) return CONTROL_CHARACTERS;
  return undefined;
}

export function featureNameError(value: unknown): string | undefined {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') return FEATURE_REQUIRED;
  if (name.length > FEATURE_NAME_MAX_LENGTH) return tooLong(FEATURE_NAME_MAX_LENGTH);
  if (hasControlCharacters(name)) return CONTROL_CHARACTERS;
  return undefined;
}

/** Usefulness is optional: null or undefined pass; otherwise a whole number from 1 to 5. */
export function usefulnessError(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const valid = typeof value === 'number' && Number.isInteger(value) && value >= USEFULNESS_MIN && value <= USEFULNESS_MAX;
  return valid ? undefined : USEFULNESS_RANGE;
}

export function locationUrlError(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > LOCATION_URL_MAX_LENGTH || hasControlCharacters(value)) {
    return LOCATION_URL_INVALID;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : LOCATION_URL_INVALID;
  } catch {
    return LOCATION_URL_INVALID;
  }
}

export function screenWidthError(value: unknown): string | undefined {
  const valid = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= SCREEN_WIDTH_MAX;
  return valid ? undefined : SCREEN_WIDTH_INVALID;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** Every field's first broken rule; empty when the feedback is valid. Accepts anything (it checks the shape too). */
export function feedbackErrors(input: unknown): FeedbackErrors {
  const errors: FeedbackErrors = {
    feature: featureNameError(field(field(input, 'feature'), 'name')),
    text: feedbackTextError(field(field(input, 'feedback'), 'text')),
    usefulness: usefulnessError(field(input, 'usefulness')),
    locationUrl: locationUrlError(field(input, 'locationUrl')),
    screenWidth: screenWidthError(field(input, 'screenWidth')),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message !== undefined)) as FeedbackErrors;
}

/** Valid feedback as stored: texts trimmed, a missing usefulness as null. Call after `feedbackErrors` is empty. */
export function normalizeFeedback(input: FeedbackInput): FeedbackInput {
  return {
    feature: { name: input.feature.name.trim() },
    feedback: { text: input.feedback.text.trim() },
    usefulness: input.usefulness ?? null,
    locationUrl: input.locationUrl,
    screenWidth: input.screenWidth,
  };
}
