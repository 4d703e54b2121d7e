/** The sign-in stopped at a step of the identity provider that this version of Caracal cannot complete. */
export function unsupportedStepMessage(step: string): string {
  return `Your account needs a sign-in step this version of Caracal does not support yet (${step}). Contact your administrator.`;
}
