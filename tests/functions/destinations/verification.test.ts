// A destination's verificationStatus (the specification's field) on dynalite with a receiver on 127.0.0.1:
// NOT_VERIFIED when saved; a Send Test Alert of the saved destination makes it VERIFIED (the service took it)
// or FAILED (it did not); a save that keeps the configuration keeps it, one that changes it (a secret too)
// makes it NOT_VERIFIED again; a test of unsaved form values changes nothing.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED_SECRET } from '../../../core/destinations';
import { sendTestAlert } from '../../../functions/lib/delivery';
import { createDestination, getDestination, listDestinations, updateDestination } from '../../../functions/lib/destinations';
import { startEntityTable } from '../alerts/entity-table';

let stopTable: () => Promise<void>;
let receiver: Server;
let base: string;
const actor = { email: 'admin@caracal.local', username: 'admin' };

beforeAll(async () => {
  stopTable = (await startEntityTable('verification')).stop;
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead((req.url ?? '').startsWith('/down') ? 500 : 200).end('answered'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    DESTINATIONS_LOCAL_KEY: randomBytes(32).toString('base64'),
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
  });
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await stopTable();
});

const input = (displayName: string, webhookURL: string, headers: { name: string; value: string }[] = []) => ({
  outputType: 'customwebhook',
  displayName,
  defaultForSeverity: ['HIGH'],
  alertTypes: ['ALERT'],
  logTypes: [],
  config: { webhookURL, customHeaders: headers },
});

describe('verificationStatus', () => {
  it('follows the tests of the saved destination and resets when its configuration changes', async () => {
    const created = await createDestination(input('Hook', `${base}/up`, [{ name: 'X-Key', value: 'k1' }]), actor);
    expect(created).toMatchObject({ verificationStatus: 'NOT_VERIFIED', verifiedAt: null });

    expect(await sendTestAlert({ id: created.id })).toMatchObject({ ok: true, statusCode: 200 });
    const verified = await getDestination(created.id);
    expect(verified.verificationStatus).toBe('VERIFIED');
    expect(Date.parse(verified.verifiedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(verified.revision).toBe(created.revision);

    // A rename, secrets sent back masked: the configuration is the same, so it stays verified.
    const renamed = await updateDestination(
      created.id,
      input('Hook renamed', MASKED_SECRET, [{ name: 'X-Key', value: MASKED_SECRET }]),
      actor,
    );
    expect(renamed).toMatchObject({ verificationStatus: 'VERIFIED', verifiedAt: verified.verifiedAt });

    // A new header value (a secret): not verified any more.
    const changed = await updateDestination(
      created.id,
      input('Hook renamed', MASKED_SECRET, [{ name: 'X-Key', value: 'k2' }]),
      actor,
    );
    expect(changed).toMatchObject({ verificationStatus: 'NOT_VERIFIED', verifiedAt: null });

    // A test of unsaved values (the form's) says nothing about the saved destination.
    expect((await sendTestAlert({ id: created.id, input: input('Hook renamed', `${base}/down`) })).ok).toBe(false);
    expect((await getDestination(created.id)).verificationStatus).toBe('NOT_VERIFIED');

    const down = await updateDestination(created.id, input('Hook renamed', `${base}/down`), actor);
    expect((await sendTestAlert({ id: down.id })).statusCode).toBe(500);
    expect((await listDestinations()).find((d) => d.id === created.id)?.verificationStatus).toBe('FAILED');
  });
});
