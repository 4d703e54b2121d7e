// The demo function. Events:
//   { action: 'seed', detectionsZip: <base64 zip of demo/detections>, webhookUrl? } → sources and detections
//     (and, given webhookUrl, a custom-webhook destination to it), once (the state item makes it idempotent; a
//     second seed answers `alreadySeeded`), then one round of events; `lookupTables` (demo/lookups, read by the
//     host) are created before the events, so they are enriched;
//   { action: 'generate' }                                               → sources if missing, one round.
import { seedDemo, sendDemoRound, type DemoResult } from '../lib/demo';

export async function handler(event: {
  action?: string;
  detectionsZip?: string;
  webhookUrl?: string;
  lookupTables?: unknown;
}): Promise<DemoResult> {
  if (event.action === 'seed') return seedDemo(event.detectionsZip, new Date(), event.webhookUrl, event.lookupTables);
  if (event.action === 'generate') return sendDemoRound();
  throw new Error(`unknown demo action ${JSON.stringify(event.action)} (seed or generate)`);
}
