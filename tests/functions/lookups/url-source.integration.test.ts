// Provider data fetched from a URL through the shared guarded client (functions/lib/net): a file served on
// loopback is read when the deployment allows private networks (locally), refused otherwise; metadata
// addresses are refused always; a file past the size cap fails; a URL-sourced table whose fetch is refused
// keeps no data, shows why, and raises LOOKUP_TABLE_REFRESH.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../../functions/lib/alerts';
import { createLookupTable, fetchUrl, getLookupTable } from '../../../functions/lib/lookups';
import { startAlertChanges, type AlertChanges } from '../alerts/alert-changes';
import { startEntityTable } from '../alerts/entity-table';
import { testUser } from './users';

let server: Server;
let base: string;
let stops: (() => Promise<void>)[] = [];
let changes: AlertChanges;
const TOR = '# exit nodes\n185.220.101.1\n185.220.101.2\n';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/tor.txt') return res.end(TOR);
    if (req.url === '/big.txt') return res.end('x'.repeat(200_000));
    res.statusCode = 404;
    res.end('no such file');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stops.push((await startEntityTable('lookups-url')).stop);
  changes = await startAlertChanges();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await changes?.stop();
  for (const stop of stops.reverse()) await stop();
  stops = [];
  delete process.env.LOOKUPS_ALLOW_PRIVATE_NETWORKS;
});

describe('fetchUrl', () => {
  it('reads a file on loopback only where private networks are allowed', async () => {
    delete process.env.LOOKUPS_ALLOW_PRIVATE_NETWORKS;
    await expect(fetchUrl(`${base}/tor.txt`)).rejects.toThrow(/Refused: 127\.0\.0\.1 is a loopback address/);
    process.env.LOOKUPS_ALLOW_PRIVATE_NETWORKS = 'true';
    expect(await fetchUrl(`${base}/tor.txt`)).toBe(TOR);
  });

  it('refuses metadata addresses even where private networks are allowed', async () => {
    process.env.LOOKUPS_ALLOW_PRIVATE_NETWORKS = 'true';
    await expect(fetchUrl('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(
      /Could not fetch .*Refused: 169\.254\.169\.254 is a link-local address/,
    );
  });

  it('fails on an error status and on a file past the size cap (never cut short)', async () => {
    process.env.LOOKUPS_ALLOW_PRIVATE_NETWORKS = 'true';
    await expect(fetchUrl(`${base}/missing.txt`)).rejects.toThrow(/HTTP 404 \(no such file\)/);
    await expect(fetchUrl(`${base}/big.txt`, { maxBytes: 100_000 })).rejects.toThrow(/larger than 98 KB/);
    expect((await fetchUrl(`${base}/big.txt`, { maxBytes: 300_000 })).length).toBe(200_000);
  });
});

describe('a URL-sourced provider table', () => {
  it('keeps no data when its URL is refused, shows why, and raises a refresh alert', async () => {
    const told: Alert[] = [];
    const table = await createLookupTable(
      {
        name: 'tor_exit_nodes',
        description: 'Tor exit nodes',
        primaryKey: 'ip',
        keyType: 'CIDR',
        provider: 'TOR_EXIT_NODES',
        source: { kind: 'URL', location: 'https://169.254.169.254/tor.txt', refreshMinutes: 60 },
        associations: [],
        enabled: true,
      },
      null,
      (await testUser('provider-editor@example.com', ['LookupRead', 'LookupModify'])).caller,
      new Date('2026-11-24T10:00:00Z'),
      async (alert) => void told.push(alert),
    );
    const stored = (await getLookupTable(table.id))!;
    expect(stored.status).toBe('REFRESH_FAILED');
    expect(stored.lastError).toMatch(/Could not fetch https:\/\/169\.254\.169\.254\/tor\.txt: Refused: .*link-local/);
    expect(told.map((a) => a.title)).toEqual(['Lookup table tor_exit_nodes could not be refreshed']);
    expect(changes.published().some((m) => JSON.stringify(m).includes(told[0].id))).toBe(true);
  });
});
