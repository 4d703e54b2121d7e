// The demo function. Events:
//   { action: 'seed', detectionsZip: <base64 zip of demo/detections> }  → sources and detections, once
//     (the state item makes it idempotent; a second seed answers `alreadySeeded`), then one round of events;
//   { action: 'generate' }                                               → sources if missing, one round.
import { seedDemo, sendDemoRound, type DemoResult } from '../lib/demo';

export async function handler(event: { action?: string; detectionsZip?: string }): Promise<DemoResult> {
  if (event.action === 'seed') return seedDemo(event.detectionsZip);
  if (event.action === 'generate') return sendDemoRound();
  throw new Error(`unknown demo action ${JSON.stringify(event.action)} (seed or generate)`);
}
