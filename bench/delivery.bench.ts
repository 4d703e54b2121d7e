// Alert delivery latency through the local runtime: from an alert's creation (stored and published on the
// alert-changes queue, as every alert is) to the request reaching a receiver on 127.0.0.1 — fan-out function,
// delivery queue, sender function, HTTP — for 100 alerts one after another; median and p95. The baseline,
// measured in the same run and alternated sample by sample, is a direct POST of the same body to the same
// receiver through the delivery HTTP client: what any delivery costs at least. The figure is the ratio of the
// medians (and of the p95s).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSystemAlert } from '../functions/lib/alerts';
import { send } from '../functions/lib/net';
import { createDestination } from '../functions/lib/destinations';
import { ensureSynthesized } from '../local/build';
import { startTestRuntime } from '../tests/local/harness';
import { ROOT, TEST_ASSEMBLY } from '../tests/setup/global';

const SAMPLES = 100;

const arrivals = new Map<string, number>();
const waiting = new Map<string, () => void>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    const id = String((JSON.parse(Buffer.concat(chunks).toString()) as { id?: string }).id);
    arrivals.set(id, at);
    waiting.get(id)?.();
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const arrived = (id: string, timeoutMs = 30_000) =>
  new Promise<number>((resolve, reject) => {
    if (arrivals.has(id)) return resolve(arrivals.get(id)!);
    const timer = setTimeout(() => reject(new Error(`alert ${id} was not delivered within ${timeoutMs / 1000} s`)), timeoutMs);
    waiting.set(id, () => {
      clearTimeout(timer);
      resolve(arrivals.get(id)!);
    });
  });

ensureSynthesized(ROOT, TEST_ASSEMBLY);
const runtime = await startTestRuntime();
try {
  // This process works as the sender does: its environment reaches the runtime's stand-ins.
  const sender = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('DeliverySenderFunction'));
  if (!sender) throw new Error('the template has no delivery sender');
  Object.assign(process.env, sender.spec.environment);
  await createDestination(
    {
      outputType: 'customwebhook',
      displayName: 'Bench receiver',
      defaultForSeverity: ['INFO'],
      alertTypes: ['SYSTEM_ERROR'],
      logTypes: [],
      config: { webhookURL: url },
    },
    { email: 'bench@caracal.local', username: 'bench' },
  );

  const pipeline: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < SAMPLES + 5; i++) {
    // Baseline: the same kind of body, posted straight to the receiver.
    const baseId = `direct-${i}`;
    const b0 = performance.now();
    await send(
      { url, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: baseId }) },
      { allowPrivateNetworks: true },
    );
    const b1 = await arrived(baseId);
    // Through the pipeline: from the alert's creation to the receiver.
    const t0 = performance.now();
    const { alert } = await createSystemAlert(
      {
        kind: 'SOURCE_NO_DATA',
        title: `Bench alert ${i}`,
        description: 'bench',
        severity: 'INFO',
        dedupKey: `bench:${i}:${Date.now()}`,
      },
      { onCreated: async () => undefined },
    );
    const t1 = await arrived(alert.id);
    // The first five warm the functions' workers.
    if (i >= 5) {
      direct.push(b1 - b0);
      pipeline.push(t1 - t0);
    }
  }

  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const [pm, p95] = [quantile(pipeline, 0.5), quantile(pipeline, 0.95)];
  const [dm, d95] = [quantile(direct, 0.5), quantile(direct, 0.95)];
  console.log(`alert creation → receiver, ${SAMPLES} alerts one after another (local runtime):`);
  console.log(`  pipeline  median ${ms(pm)}  p95 ${ms(p95)}`);
  console.log(`  baseline  median ${ms(dm)}  p95 ${ms(d95)}  (a direct POST to the same receiver)`);
  console.log(`  ratio     median ${(pm / dm).toFixed(1)}x  p95 ${(p95 / d95).toFixed(1)}x`);
} finally {
  await runtime.stop();
  receiver.closeAllConnections();
  receiver.close();
}
