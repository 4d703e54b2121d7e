// S3-sourced lookup tables read their object through the table's role: STS AssumeRole (through the SDK's
// temporary-credentials provider) and the S3 calls signed with the role's credentials, not the function's. A
// fake STS and S3 on loopback answer and record the calls. In the local runtime (an S3 stand-in, no STS) the
// role is not assumed and the object is read with the runtime's own access, as the form and the docs say.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SESSION_NAME, canAssumeRoles, readObject, resetRoleClients } from '../../../functions/lib/lookups/storage';

const ROLE = 'arn:aws:iam::123456789012:role/lookup-reader';
const ASSUMED_KEY = 'ASIAASSUMEDROLEKEY01';
const CSV = 'ip,owner\n10.0.0.1,web\n';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  readonly body: string;
}

let server: Server;
let endpoint: string;
let seen: Seen[] = [];
let stsAnswer: 'ok' | 'denied' = 'ok';
const saved = { ...process.env };

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      seen.push({ method: req.method!, path: req.url!, authorization: String(req.headers.authorization ?? ''), body });
      if (body.includes('Action=AssumeRole')) {
        if (stsAnswer === 'denied') {
          res.writeHead(403, { 'content-type': 'text/xml' });
          return res.end(
            '<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized to perform: sts:AssumeRole</Message></Error><RequestId>r</RequestId></ErrorResponse>',
          );
        }
        const expiry = new Date(Date.now() + 3600_000).toISOString();
        res.writeHead(200, { 'content-type': 'text/xml' });
        return res.end(
          `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>${ASSUMED_KEY}</AccessKeyId><SecretAccessKey>secret</SecretAccessKey><SessionToken>token</SessionToken><Expiration>${expiry}</Expiration></Credentials><AssumedRoleUser><Arn>${ROLE}/s</Arn><AssumedRoleId>AROA:s</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></AssumeRoleResponse>`,
        );
      }
      // S3: HeadObject / GetObject of the table's object
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(Buffer.byteLength(CSV)) });
      res.end(req.method === 'HEAD' ? undefined : CSV);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  process.env = saved;
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  seen = [];
  stsAnswer = 'ok';
  resetRoleClients();
  process.env = { ...saved };
});

function env(withSts: boolean) {
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIAFUNCTIONOWNKEY01',
    AWS_SECRET_ACCESS_KEY: 'own-secret',
    AWS_ENDPOINT_URL_S3: endpoint,
  });
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  if (withSts) process.env.AWS_ENDPOINT_URL_STS = endpoint;
  else delete process.env.AWS_ENDPOINT_URL_STS;
}

describe("an S3-sourced table's role", () => {
  it('is assumed with STS, and the object is read with the role credentials', async () => {
    env(true);
    expect(canAssumeRoles()).toBe(true);
    expect(await readObject('s3://customer-bucket/intel/ips.csv', 1024, ROLE)).toBe(CSV);
    const assume = seen.filter((s) => s.body.includes('Action=AssumeRole'));
    expect(assume).toHaveLength(1);
    const params = new URLSearchParams(assume[0].body);
    expect(params.get('RoleArn')).toBe(ROLE);
    expect(params.get('RoleSessionName')).toBe(ROLE_SESSION_NAME);
    expect(assume[0].authorization).toContain('Credential=AKIAFUNCTIONOWNKEY01/');
    const s3Calls = seen.filter((s) => !s.body.includes('Action='));
    expect(s3Calls.map((s) => s.method)).toEqual(['HEAD', 'GET']);
    for (const call of s3Calls) expect(call.authorization).toContain(`Credential=${ASSUMED_KEY}/`);
    // a second read reuses the credentials until they near expiry
    await readObject('s3://customer-bucket/intel/ips.csv', 1024, ROLE);
    expect(seen.filter((s) => s.body.includes('Action=AssumeRole'))).toHaveLength(1);
  });

  it('says so when the role cannot be assumed', async () => {
    env(true);
    stsAnswer = 'denied';
    await expect(readObject('s3://customer-bucket/intel/ips.csv', 1024, ROLE)).rejects.toThrow(
      `Could not assume the role ${ROLE}: not authorized to perform: sts:AssumeRole`,
    );
    expect(seen.filter((s) => !s.body.includes('Action='))).toEqual([]);
  });

  it('without a role, or in the local runtime (no STS), reads with the own credentials', async () => {
    env(true);
    await readObject('s3://customer-bucket/intel/ips.csv', 1024, null);
    env(false);
    expect(canAssumeRoles()).toBe(false);
    await readObject('s3://customer-bucket/intel/ips.csv', 1024, ROLE);
    expect(seen.some((s) => s.body.includes('Action=AssumeRole'))).toBe(false);
    for (const call of seen) expect(call.authorization).toContain('Credential=AKIAFUNCTIONOWNKEY01/');
  });
});
