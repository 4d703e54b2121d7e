// Rules of the General settings form, used by the form and by updateGeneralSettings.
import { FIELD_REQUIRED } from './generic';

export const ORGANIZATION_NAME_MAX_LENGTH = 64;
export const ORGANIZATION_NAME_TOO_LONG = `Must be at most ${ORGANIZATION_NAME_MAX_LENGTH} characters`;
/** The specification's free-text rule (no < > & or double quote), with control characters too. */
export const FREE_TEXT_CHARACTERS = 'Must not contain <, >, &, double quotes or control characters';
export const MFA_REQUIRED_BY_DEPLOYMENT = 'MFA is required by the deployment and cannot be made optional';

const FORBIDDEN_CHARACTERS = /[<>&"]/;

/** Control characters (C0 and DEL) have no place in a name. */
const hasControlCharacter = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** The organisation name's first broken rule, or undefined. Surrounding spaces do not count. */
export function organizationNameError(value: unknown): string | undefined {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '') return FIELD_REQUIRED;
  if (FORBIDDEN_CHARACTERS.test(name) || hasControlCharacter(name)) return FREE_TEXT_CHARACTERS;
  if ([...name].length > ORGANIZATION_NAME_MAX_LENGTH) return ORGANIZATION_NAME_TOO_LONG;
  return undefined;
}

/** Whether sign-in must include an authenticator code: the deployment requires it, or the organisation does. */
export function effectiveMfaRequired(deploymentMfaMode: string, organizationRequiresMfa: boolean): boolean {
  return deploymentMfaMode === 'REQUIRED' || organizationRequiresMfa;
}

/** The MFA choice's error, or undefined: with MFA required by the deployment it cannot be turned off. */
export function mfaRequiredError(deploymentMfaMode: string, mfaRequired: unknown): string | undefined {
  if (typeof mfaRequired !== 'boolean') return 'Must have a value';
  if (deploymentMfaMode === 'REQUIRED' && !mfaRequired) return MFA_REQUIRED_BY_DEPLOYMENT;
  return undefined;
}
