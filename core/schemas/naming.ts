// The schema form's rules, with the specification's messages: the name (the 'Custom.' prefix applied),
// the reference URL and the spec (required unless field discovery is enabled). Used by the web form and by
// the API's resolvers alike.
import { CUSTOM_PREFIX, customSchemaName, MESSAGES, validateSchemaName } from './validate';

export const SCHEMA_FORM_MESSAGES = {
  required: MESSAGES.required,
  duplicate: MESSAGES.duplicateSchema,
  capital: 'Must start with a capital letter',
  referenceURL: 'Must be a valid URL',
} as const;

/** The first problem with a custom schema's name as typed (with or without 'Custom.'), or null. */
export function customSchemaNameProblem(name: unknown, existingNames?: Iterable<string>): string | null {
  if (typeof name !== 'string' || name.trim() === '') return SCHEMA_FORM_MESSAGES.required;
  const full = customSchemaName(name.trim());
  if (!/^[A-Z]/.test(full.slice(CUSTOM_PREFIX.length))) return SCHEMA_FORM_MESSAGES.capital;
  return validateSchemaName(full, { custom: true, existingNames })[0] ?? null;
}

/** http(s) URL with a host; empty is fine (the reference link is optional). */
export function referenceUrlProblem(url: unknown): string | null {
  if (url === undefined || url === null || url === '') return null;
  if (typeof url !== 'string' || !/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(url.trim())) return SCHEMA_FORM_MESSAGES.referenceURL;
  return null;
}

/** The spec YAML is required unless field discovery is enabled (the fields are then found in the data). */
export function specTextProblem(spec: unknown, isFieldDiscoveryEnabled: boolean): string | null {
  if (isFieldDiscoveryEnabled) return null;
  return typeof spec === 'string' && spec.trim() !== '' ? null : SCHEMA_FORM_MESSAGES.required;
}
