// The demo button: starts the demo function (DEMO_FUNCTION_NAME), which creates the demo sources when they
// are missing and sends a round of demo events through the ingest paths.
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { lambda } from '../../../lib/clients';
import { ENV, requireEnv } from '../../../lib/env';
import { ApiError } from '../../../lib/errors';
import type { ResolverMap } from '../types';

async function generateDemoEvents() {
  const out = await lambda().send(
    new InvokeCommand({
      FunctionName: requireEnv(ENV.demoFunction),
      Payload: Buffer.from(JSON.stringify({ action: 'generate' })),
    }),
  );
  const text = Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8');
  if (out.FunctionError) {
    const message = (() => {
      try {
        return (JSON.parse(text) as { errorMessage?: string }).errorMessage ?? text;
      } catch {
        return text;
      }
    })();
    throw new ApiError('ServerError', `The demo events could not be sent: ${message}`);
  }
  return JSON.parse(text) as { sent: { logType: string; events: number }[]; sentAt: string };
}

export const demoResolvers: ResolverMap = {
  'Mutation.generateDemoEvents': generateDemoEvents,
};
