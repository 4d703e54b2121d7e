// The demo destination: a custom webhook taking every alert type and severity, pointed at the local runtime's
// /local/webhook page, so a new user sees a delivery as soon as the first alert is raised.
import { ALERT_SEVERITIES, ALERT_TYPES } from '../../../core/alerts/model';
import { createDestination } from '../destinations';
import { ApiError } from '../errors';

export const DEMO_DESTINATION_NAME = 'Local webhook demo';

/** Creates the demo destination (kept when it exists already); answers where it delivers. */
export async function seedDemoDestination(webhookUrl: string): Promise<string> {
  try {
    await createDestination(
      {
        outputType: 'customwebhook',
        displayName: DEMO_DESTINATION_NAME,
        defaultForSeverity: [...ALERT_SEVERITIES],
        alertTypes: [...ALERT_TYPES],
        logTypes: [],
        config: { webhookURL: webhookUrl, customHeaders: [{ name: 'X-Caracal-Demo', value: 'true' }] },
      },
      { email: 'demo@caracal.local', username: 'Caracal demo' },
    );
  } catch (err) {
    if (!(err instanceof ApiError && err.errorType === 'AlreadyExists')) throw err;
  }
  return webhookUrl;
}
