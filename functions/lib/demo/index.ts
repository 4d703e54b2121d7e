// The demo: its log sources and detections, created once, and rounds of demo events sent through the same
// ingest paths real logs take. The area's one door: what the demo function runs (seed, a round) and what the
// API's button asks of it.
// The demo function needs ENTITY_TABLE, INGEST_BUCKET, HTTP_INGEST_URL and ENGINE_FUNCTION_NAME (its
// detections are checked as every upload's); the api function DEMO_FUNCTION_NAME (lambda:InvokeFunction).
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { lambda } from '../clients';
import { seedDetections } from '../detections';
import { seedDemoDestination } from './destination';
import { seedDemoLookups } from './lookups';
import { ENV, requireEnv } from '../env';
import { ApiError } from '../errors';
import { sendRound, type SentCount } from './send';
import { ensureDemoSources } from './sources';
import { demoState, markDetectionsLoaded } from './state';

export { demoState, type DemoState } from './state';
export type { SentCount } from './send';

export interface DemoResult {
  readonly alreadySeeded?: boolean;
  /** The demo destination seeded (locally: a custom webhook to the runtime's /local/webhook). */
  readonly destination?: string;
  readonly detections?: { total: number; failed: number };
  /** The demo lookup tables created (enrichment of the demo's events). */
  readonly lookupTables?: string[];
  readonly sent: SentCount[];
  readonly sentAt: string;
}

/**
 * The first start's demo: the sources and the detections (`detectionsZip`, the demo detections zipped), once
 * (a second seed answers `alreadySeeded`), then one round of events. With `webhookUrl` (the local runtime's
 * /local/webhook), also a custom-webhook destination taking every alert, so deliveries show at once.
 */
export async function seedDemo(
  detectionsZip: unknown,
  now = new Date(),
  webhookUrl?: unknown,
  /** The demo lookup tables (demo/lookups), made before the first events so they are enriched. */
  lookupTables?: unknown,
): Promise<DemoResult> {
  const before = await demoState();
  if (before?.detectionsLoadedAt) return { alreadySeeded: true, sent: [], sentAt: now.toISOString() };
  const state = await ensureDemoSources();
  if (typeof detectionsZip !== 'string') throw new Error('seed needs detectionsZip (the demo detections, zipped)');
  const report = await seedDetections(Buffer.from(detectionsZip, 'base64'), 'demo');
  if (report.totals.failed) {
    const reasons = report.items.filter((i) => i.status === 'FAILED').map((i) => `${i.id}: ${i.reasons.join('; ')}`);
    throw new Error(`demo detections failed to load: ${reasons.join(' | ')}`);
  }
  const lookups = await seedDemoLookups(lookupTables, now);
  const destination = typeof webhookUrl === 'string' && webhookUrl ? await seedDemoDestination(webhookUrl) : undefined;
  await markDetectionsLoaded(now);
  const sent = await sendRound(state, now);
  return {
    detections: { total: report.totals.total, failed: 0 },
    ...(lookups.length ? { lookupTables: lookups } : {}),
    ...(destination ? { destination } : {}),
    sent,
    sentAt: now.toISOString(),
  };
}

/** One round of demo events (the sources created first when missing). */
export async function sendDemoRound(now = new Date()): Promise<DemoResult> {
  const state = await ensureDemoSources();
  return { sent: await sendRound(state, now), sentAt: now.toISOString() };
}

/** Asks the demo function for a round of events (the Alerts page's button), answering what it sent. */
export async function requestDemoEvents(): Promise<Pick<DemoResult, 'sent' | 'sentAt'>> {
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
  return JSON.parse(text) as DemoResult;
}
