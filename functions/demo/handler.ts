// The demo function. Events:
//   { action: 'seed', detectionsZip: <base64 zip of demo/detections> }  → sources and detections, once
//     (the state item makes it idempotent; a second seed answers `alreadySeeded`), then one round of events;
//   { action: 'generate' }                                               → sources if missing, one round.
// Env: ENTITY_TABLE, INGEST_BUCKET, HTTP_INGEST_URL.
import { bulkUpload, readZip } from '../lib/detections/bulk';
import { lambdaEngine } from '../lib/detections/engine';
import { demoState, ensureDemoSources, markDetectionsLoaded } from './sources';
import { sendRound, type SentCount } from './send';

export interface DemoResult {
  readonly alreadySeeded?: boolean;
  readonly detections?: { total: number; failed: number };
  readonly sent: SentCount[];
  readonly sentAt: string;
}

export async function handler(event: { action?: string; detectionsZip?: string }): Promise<DemoResult> {
  const now = new Date();
  if (event.action === 'seed') {
    const before = await demoState();
    if (before?.detectionsLoadedAt) return { alreadySeeded: true, sent: [], sentAt: now.toISOString() };
    const state = await ensureDemoSources(now);
    if (typeof event.detectionsZip !== 'string') throw new Error('seed needs detectionsZip (the demo detections, zipped)');
    const report = await bulkUpload(readZip(Buffer.from(event.detectionsZip, 'base64')), {
      validateOnly: false,
      user: 'demo',
      mayModify: () => true,
      engine: lambdaEngine,
    });
    if (report.totals.failed) {
      const reasons = report.items.filter((i) => i.status === 'FAILED').map((i) => `${i.id}: ${i.reasons.join('; ')}`);
      throw new Error(`demo detections failed to load: ${reasons.join(' | ')}`);
    }
    await markDetectionsLoaded(now);
    const sent = await sendRound(state, now);
    return { detections: { total: report.totals.total, failed: 0 }, sent, sentAt: now.toISOString() };
  }
  if (event.action === 'generate') {
    const state = await ensureDemoSources(now);
    return { sent: await sendRound(state, now), sentAt: now.toISOString() };
  }
  throw new Error(`unknown demo action ${JSON.stringify(event.action)} (seed or generate)`);
}
