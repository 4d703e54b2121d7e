// The local platform's secrets, attacked as the security review did: an Admin token minted with the key inside
// cognito-local's package, passwords read from the state folder, state files readable by the machine's other
// users, the mailbox read by a page whose DNS name was rebound to 127.0.0.1, and the stand-in's admin calls
// made from a web page. A state folder from an earlier version (clear passwords, files readable by others)
// still starts, and is made safe.
import { AdminCreateUserCommand, CognitoIdentityProviderClient, GetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { createPrivateKey } from 'node:crypto';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localClientConfig } from '../../local/services/net';
import { ROOT } from '../setup/global';
import { graphql, signIn, startTestRuntime, type TestRuntime } from './harness';

const ADMIN_PASSWORD = 'Tawny-Lynx-2026!';
const INVITEE_PASSWORD = 'Spotted-Ocelot-2026!';
const stateDir = mkdtempSync(join(tmpdir(), 'caracal-secrets-'));
let runtime: TestRuntime;
let client: CognitoIdentityProviderClient;
let admin: { username: string; temporaryPassword: string };
let adminTokens: { idToken: string; accessToken: string };

beforeAll(async () => {
  runtime = await startTestRuntime(undefined, stateDir);
  client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, runtime.stack.region));
  admin = runtime.createdUsers[0];
  adminTokens = await signIn(runtime, admin.username, admin.temporaryPassword, ADMIN_PASSWORD);
});
afterAll(async () => {
  client?.destroy();
  await runtime?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const packageFile = (name: string) => join(ROOT, 'node_modules', 'cognito-local', 'lib', 'keys', name);
const keyId = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string }).kid;
const me = (token: string) => graphql(runtime, { query: '{ me { id } }' }, token);

/** Every file and folder under `dir` (symbolic links are not followed). */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return lstatSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

/** The paths under `dir` that the machine's other users could read, write or enter. */
const readableByOthers = (dir: string) => [dir, ...walk(dir)].filter((path) => (lstatSync(path).mode & 0o077) !== 0);

/** A GET or POST to the runtime's front with the headers a browser would send. */
function send(path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(runtime.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('tokens', () => {
  it("refuses an Admin token minted with the key inside cognito-local's package", async () => {
    expect((await me(adminTokens.idToken)).status).toBe(200);
    const packageKey = createPrivateKey(
      (JSON.parse(readFileSync(packageFile('cognitoLocal.private.json'), 'utf8')) as { pem: string }).pem,
    );
    const mint = (token: string) =>
      new SignJWT({ ...decodeJwt(token), 'cognito:groups': ['Admin'] })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'CognitoLocal' })
        .sign(packageKey);

    const refused = await me(await mint(adminTokens.idToken));
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0]).toMatchObject({ errorType: 'UnauthorizedException' });
    await expect(client.send(new GetUserCommand({ AccessToken: await mint(adminTokens.accessToken) }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid Access Token',
    });
  });

  it("serves the state folder's own key as the pool's JWKS, never the package's", async () => {
    const { jwk: packageJwk } = JSON.parse(readFileSync(packageFile('cognitoLocal.public.json'), 'utf8')) as {
      jwk: { n: string };
    };
    const jwks = (await (
      await fetch(`${runtime.endpoints.cognito}/${runtime.webConfig!.userPoolId}/.well-known/jwks.json`)
    ).json()) as { keys: Array<{ kid: string; n: string }> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0].n).not.toBe(packageJwk.n);
    expect(jwks.keys[0].kid).toBe(keyId(adminTokens.idToken));
  });
});

describe('the state folder', () => {
  it('after a start and an invitation, holds no chosen password, and is readable by its owner only', async () => {
    const invitee = 'invitee@caracal.local';
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId: runtime.webConfig!.userPoolId,
        Username: invitee,
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [{ Name: 'email', Value: invitee }],
      }),
    );
    const temporary = runtime.mailbox.filter((m) => m.to === invitee).at(-1)!.code!;
    await signIn(runtime, invitee, temporary, INVITEE_PASSWORD);

    const files = walk(stateDir).filter((path) => lstatSync(path).isFile());
    expect(files.some((path) => path.endsWith('.pem'))).toBe(true);
    for (const path of files) {
      const content = readFileSync(path).toString('latin1');
      for (const password of [ADMIN_PASSWORD, INVITEE_PASSWORD, admin.temporaryPassword]) {
        expect(content.includes(password), `${path} holds a password`).toBe(false);
      }
      // The mailbox is the local inbox: the invitation it received carries the temporary password.
      if (!path.endsWith('mailbox.jsonl')) expect(content.includes(temporary), `${path} holds a password`).toBe(false);
    }
    expect(readableByOthers(stateDir)).toEqual([]);
  });
});

describe('the local mailbox', () => {
  it('is served to this machine, and refused to a page whose DNS name was rebound to 127.0.0.1', async () => {
    const { port } = new URL(runtime.url);
    for (const path of ['/local/mailbox.json', '/local/mailbox']) {
      const here = await send(path, { host: `localhost:${port}` });
      expect(here.status).toBe(200);
      expect(here.text).toContain('invitee@caracal.local');
      expect((await send(path, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);

      const rebound: Array<Record<string, string>> = [
        { host: `rebound.example:${port}` },
        { host: `localhost:${port}`, origin: `http://rebound.example:${port}` },
      ];
      for (const headers of rebound) {
        const refused = await send(path, headers);
        expect(refused).toEqual({ status: 403, text: 'The local mailbox is readable from this machine only.' });
      }
    }
  });
});

describe("the Cognito stand-in's admin calls", () => {
  it("refuses them from a web page, so a page cannot set the administrator's password", async () => {
    const call = (target: string, body: Record<string, unknown>) =>
      send(
        '/cognito/',
        {
          host: new URL(runtime.url).host,
          origin: 'http://attacker.example',
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${target}`,
        },
        JSON.stringify(body),
      );
    const takeover = await call('AdminSetUserPassword', {
      UserPoolId: runtime.webConfig!.userPoolId,
      Username: admin.username,
      Password: 'Taken-Over-2026!',
      Permanent: true,
    });
    expect(takeover.status).toBe(403);
    expect(JSON.parse(takeover.text)).toEqual({
      __type: 'MissingAuthenticationTokenException',
      message: 'AdminSetUserPassword needs AWS credentials: a browser cannot call it.',
    });
    await expect(signIn(runtime, admin.username, 'Taken-Over-2026!')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(signIn(runtime, admin.username, ADMIN_PASSWORD)).resolves.toHaveProperty('idToken');

    // What the web app calls still reaches the stand-in from a browser.
    const signInCall = await call('InitiateAuth', {
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: runtime.webConfig!.userPoolClientId,
      AuthParameters: { USERNAME: admin.username, PASSWORD: ADMIN_PASSWORD },
    });
    expect(signInCall.status).toBe(200);
    expect(JSON.parse(signInCall.text)).toHaveProperty('AuthenticationResult.IdToken');
  });

  it('has no hosted UI, whose login form would compare a password with the stored hash', async () => {
    const login = await fetch(`${runtime.endpoints.cognito}/oauth2/authorize`, { method: 'POST' });
    expect(login.status).toBe(404);
  });
});

describe('a state folder from an earlier version', () => {
  it('still starts with the same signing key: clear passwords are hashed and files made owner-only', async () => {
    const stopped = runtime;
    runtime = undefined as unknown as TestRuntime;
    await stopped.stop();
    const cognitoDir = join(stateDir, 'cognito');
    const poolFile = join(cognitoDir, `${stopped.webConfig!.userPoolId}.json`);
    const pool = JSON.parse(readFileSync(poolFile, 'utf8')) as {
      Users: Record<string, { Password?: string; Attributes: Array<{ Name: string; Value: string }> }>;
      PasswordStorage?: string;
    };
    const stored = Object.values(pool.Users).find((user) =>
      user.Attributes.some((a) => a.Name === 'email' && a.Value === admin.username),
    )!;
    stored.Password = 'Legacy-Pass-2026!';
    delete pool.PasswordStorage;
    writeFileSync(poolFile, JSON.stringify(pool));
    for (const path of [stateDir, ...walk(stateDir)]) chmodSync(path, lstatSync(path).isDirectory() ? 0o755 : 0o644);

    runtime = await startTestRuntime(undefined, stateDir);
    expect(stopped.webConfig!.userPoolId).toBe(runtime.webConfig!.userPoolId);
    const { idToken } = await signIn(runtime, admin.username, 'Legacy-Pass-2026!');
    expect((await me(idToken)).status).toBe(200);
    expect(keyId(idToken)).toBe(keyId(adminTokens.idToken));
    expect(readFileSync(poolFile, 'utf8')).not.toContain('Legacy-Pass-2026!');
    expect(readableByOthers(stateDir)).toEqual([]);
  });
});
