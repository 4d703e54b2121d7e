// The local platform's secrets, piece by piece: the user pool's signing key (one per state folder, never the
// one inside cognito-local's package), password hashes and the migration of a clear-text state, refresh tokens
// kept as digests (and found by the digest of the token presented), owner-only state folders and stand-in files,
// and the loopback check that guards the local mailbox.
import {
  AdminCreateUserCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { SigningKey } from '../../local/services/cognito-flows/keys';
import { hashingStores, hashPassword, passwordMatches } from '../../local/services/cognito-flows/passwords';
import { refreshTokenDigest } from '../../local/services/cognito-flows/refresh-tokens';
import { startCognito } from '../../local/services/cognito';
import { localClientConfig } from '../../local/services/net';
import type { DataStoreFactory, StoredUser } from '../../local/services/cognito-flows/types';
import { fromThisMachine } from '../../local/services/net';
import { ownerOnlyFolder } from '../../local/state-folder';
import { ROOT } from '../setup/global';

const require = createRequire(import.meta.url);
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'caracal-secrets-'));
  folders.push(dir);
  return dir;
};
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const mode = (path: string) => statSync(path).mode & 0o777;
const now = () => Math.floor(Date.now() / 1000);

/** The private key cognito-local's npm package ships, which anyone can read. */
function packageKey() {
  const file = join(ROOT, 'node_modules', 'cognito-local', 'lib', 'keys', 'cognitoLocal.private.json');
  return createPrivateKey((JSON.parse(readFileSync(file, 'utf8')) as { pem: string }).pem);
}

describe("the user pool's signing key", () => {
  it('is made once per state folder, kept owner-only, and read back on the next start', async () => {
    const dir = folder();
    const first = await SigningKey.load(join(dir, 'signing-key.pem'));
    expect(mode(join(dir, 'signing-key.pem'))).toBe(0o600);
    const again = await SigningKey.load(join(dir, 'signing-key.pem'));
    expect(again.jwk).toEqual(first.jwk);
    const token = await first.sign({ sub: 'u-1', exp: now() + 60 });
    expect(await again.verify(token)).toMatchObject({ sub: 'u-1' });

    const elsewhere = await SigningKey.load(join(folder(), 'signing-key.pem'));
    expect(elsewhere.jwk.kid).not.toBe(first.jwk.kid);
    expect(await elsewhere.verify(token)).toBe('invalid');
  });

  it("refuses a token signed with the key inside cognito-local's package", async () => {
    const key = await SigningKey.load(join(folder(), 'signing-key.pem'));
    const publicJwk = (require('cognito-local/lib/keys/cognitoLocal.public.json') as { jwk: { n: string } }).jwk;
    expect(key.jwk.n).not.toBe(publicJwk.n);
    const minted = await new SignJWT({ sub: 'u-1', token_use: 'access', 'cognito:groups': ['Admin'], exp: now() + 3600 })
      .setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' })
      .sign(packageKey());
    expect(await key.verify(minted)).toBe('invalid');
  });

  it('requires an expiry, and refuses a token issued for later', async () => {
    const key = await SigningKey.load(join(folder(), 'signing-key.pem'));
    const cases: Array<[JWTPayload, string | object]> = [
      [{ sub: 'u-1', exp: now() + 60, iat: now() }, { sub: 'u-1' }],
      [{ sub: 'u-1', iat: now() }, 'invalid'],
      [{ sub: 'u-1', exp: now() - 10 }, 'expired'],
      [{ sub: 'u-1', exp: now() + 7200, iat: now() + 3600 }, 'invalid'],
      [{ sub: 'u-1', exp: now() + 7200, nbf: now() + 3600 }, 'invalid'],
    ];
    for (const [claims, expected] of cases) {
      const verified = await key.verify(await key.sign(claims));
      if (typeof expected === 'string') expect(verified, JSON.stringify(claims)).toBe(expected);
      else expect(verified).toMatchObject(expected);
    }
  });
});

describe('password hashes', () => {
  it('are salted, and match only their password', async () => {
    const one = await hashPassword('Tawny-Lynx-2026!');
    const two = await hashPassword('Tawny-Lynx-2026!');
    expect(one).toMatch(/^scrypt\$[\w-]{22}\$[\w-]{43}$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('Tawny');
    expect(await passwordMatches('Tawny-Lynx-2026!', one)).toBe(true);
    expect(await passwordMatches('Tawny-Lynx-2026!', two)).toBe(true);
    expect(await passwordMatches('tawny-lynx-2026!', one)).toBe(false);
    expect(await passwordMatches('', one)).toBe(false);
  });

  it('never match a missing hash, the clear password itself, the hash itself or a value that is not a string', async () => {
    const stored = await hashPassword('Tawny-Lynx-2026!');
    expect(await passwordMatches('Tawny-Lynx-2026!', undefined)).toBe(false);
    expect(await passwordMatches('Tawny-Lynx-2026!', 'Tawny-Lynx-2026!')).toBe(false);
    expect(await passwordMatches(stored, stored)).toBe(false);
    for (const password of [undefined, null, 42, { $ne: null }, ['Tawny-Lynx-2026!']]) {
      expect(await passwordMatches(password, stored)).toBe(false);
    }
  });
});

describe("the user pool's store", () => {
  const ctx = { logger: { debug: () => undefined } };
  const stormDb = (dir: string): DataStoreFactory => {
    const { StormDBDataStoreFactory } = require('cognito-local/lib/services/dataStore/stormDb') as {
      StormDBDataStoreFactory: new (dir: string) => DataStoreFactory;
    };
    return new StormDBDataStoreFactory(dir);
  };
  const user = (Username: string, Password: string): StoredUser => ({ Username, Password, UserStatus: 'CONFIRMED' });

  it('hashes the clear passwords of a state folder from an earlier version, once, and keeps the rest', async () => {
    const dir = folder();
    const earlier = { Users: { ada: user('ada', 'Clear-Pass-2026!'), bob: { Username: 'bob' } }, Options: { Id: 'pool' } };
    writeFileSync(join(dir, 'pool.json'), JSON.stringify(earlier));
    const store = await hashingStores(stormDb(dir)).create(ctx, 'pool', { Users: {}, Options: {} });
    const file = readFileSync(join(dir, 'pool.json'), 'utf8');
    expect(file).not.toContain('Clear-Pass-2026!');
    const ada = (await store.get<StoredUser>(ctx, ['Users', 'ada']))!;
    expect(await passwordMatches('Clear-Pass-2026!', ada.Password)).toBe(true);
    expect(ada.UserStatus).toBe('CONFIRMED');
    expect(await store.get<StoredUser>(ctx, ['Users', 'bob'])).toEqual({ Username: 'bob' });

    const reopened = await hashingStores(stormDb(dir)).create(ctx, 'pool', { Users: {}, Options: {} });
    expect((await reopened.get<StoredUser>(ctx, ['Users', 'ada']))!.Password).toBe(ada.Password);
  });

  it('hashes each new password before it reaches the file, and keeps a hash it read', async () => {
    const dir = folder();
    const store = await hashingStores(stormDb(dir)).create(ctx, 'pool', { Users: {}, Options: {} });
    await store.set(ctx, ['Users', 'ada'], user('ada', 'Temp-Pass-12345'));
    const saved = (await store.get<StoredUser>(ctx, ['Users', 'ada']))!;
    expect(await passwordMatches('Temp-Pass-12345', saved.Password)).toBe(true);
    await store.set(ctx, ['Users', 'ada'], { ...saved, Enabled: false });
    expect((await store.get<StoredUser>(ctx, ['Users', 'ada']))!.Password).toBe(saved.Password);
    await store.set(ctx, ['Users', 'ada'], { ...saved, Password: 'Chosen-Pass-2026!' });
    const changed = (await store.get<StoredUser>(ctx, ['Users', 'ada']))!;
    expect(await passwordMatches('Chosen-Pass-2026!', changed.Password)).toBe(true);
    const file = readFileSync(join(dir, 'pool.json'), 'utf8');
    expect(file).not.toContain('Temp-Pass-12345');
    expect(file).not.toContain('Chosen-Pass-2026!');
  });

  it('keeps each refresh token as its digest, never in clear, and digests those of an earlier version', async () => {
    const dir = folder();
    const earlier = {
      Users: { ada: { ...user('ada', 'x'), RefreshTokens: ['eyJ.clear-token-of-ada.sig'] } },
      Options: { Id: 'pool' },
      PasswordStorage: 'scrypt',
    };
    writeFileSync(join(dir, 'pool.json'), JSON.stringify(earlier));
    const store = await hashingStores(stormDb(dir)).create(ctx, 'pool', { Users: {}, Options: {} });
    expect(readFileSync(join(dir, 'pool.json'), 'utf8')).not.toContain('clear-token-of-ada');
    const ada = (await store.get<StoredUser>(ctx, ['Users', 'ada']))!;
    expect(ada.RefreshTokens).toEqual([refreshTokenDigest('eyJ.clear-token-of-ada.sig')]);
    expect(ada.Password).toBe('x');

    // cognito-local pushes a new token onto the list it read and saves the user: the new one is digested, the
    // digest read is kept, and what it read was a copy, so the clear token never was in the store.
    (ada.RefreshTokens as string[]).push('eyJ.second-token.sig');
    expect(JSON.stringify(await store.get(ctx, ['Users', 'ada']))).not.toContain('second-token');
    await store.set(ctx, ['Users', 'ada'], ada);
    expect((await store.get<StoredUser>(ctx, ['Users', 'ada']))!.RefreshTokens).toEqual([
      refreshTokenDigest('eyJ.clear-token-of-ada.sig'),
      refreshTokenDigest('eyJ.second-token.sig'),
    ]);
    expect(readFileSync(join(dir, 'pool.json'), 'utf8')).not.toContain('second-token');
    expect(refreshTokenDigest('a')).toMatch(/^sha256\$[\w-]{43}$/);
  });

  it("leaves the app clients' store as it is", async () => {
    const dir = folder();
    const clients = await hashingStores(stormDb(dir)).create(ctx, 'clients', { Clients: {} });
    await clients.set(ctx, ['Clients', 'c-1'], { ClientId: 'c-1' });
    expect(JSON.parse(readFileSync(join(dir, 'clients.json'), 'utf8'))).toEqual({ Clients: { 'c-1': { ClientId: 'c-1' } } });
  });
});

describe('the state folder', () => {
  it('is created owner-only', () => {
    const dir = join(folder(), 'state');
    ownerOnlyFolder(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('made by an earlier version, readable by others, has everything in it made owner-only', () => {
    const dir = join(folder(), 'state');
    mkdirSync(join(dir, 'cognito'), { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'mailbox.jsonl'), '{}\n', { mode: 0o644 });
    writeFileSync(join(dir, 'cognito', 'pool.json'), '{}', { mode: 0o664 });
    writeFileSync(join(dir, 'run.sh'), '', { mode: 0o755 });
    ownerOnlyFolder(dir);
    expect([dir, join(dir, 'cognito')].map(mode)).toEqual([0o700, 0o700]);
    expect(['mailbox.jsonl', 'cognito/pool.json', 'run.sh'].map((f) => mode(join(dir, f)))).toEqual([0o600, 0o600, 0o700]);
  });
});

describe('the Cognito stand-in', () => {
  const PASSWORD = 'Tawny-Lynx-2026!';

  it('keeps its folder, key, user pool files and mailbox owner-only, also those an earlier version left open', async () => {
    const state = folder();
    mkdirSync(join(state, 'cognito'), { mode: 0o755 });
    chmodSync(join(state, 'cognito'), 0o755);
    await SigningKey.load(join(state, 'cognito', 'signing-key.pem'));
    chmodSync(join(state, 'cognito', 'signing-key.pem'), 0o644);
    writeFileSync(join(state, 'cognito', 'clients.json'), '{"Clients":{}}', { mode: 0o644 });
    writeFileSync(join(state, 'mailbox.jsonl'), '', { mode: 0o644 });
    const cognito = await startCognito(state);
    try {
      const client = new CognitoIdentityProviderClient(localClientConfig(cognito.endpoint, 'us-east-1'));
      await client.send(new CreateUserPoolCommand({ PoolName: 'modes', UsernameAttributes: ['email'] }));
      client.destroy();
    } finally {
      await cognito.stop();
    }
    expect(mode(join(state, 'cognito'))).toBe(0o700);
    const files = readdirSync(join(state, 'cognito'));
    expect(files).toEqual(expect.arrayContaining(['signing-key.pem', 'clients.json']));
    expect(files.filter((f) => f.endsWith('.json') && f !== 'clients.json')).toHaveLength(1);
    for (const file of files) expect(mode(join(state, 'cognito', file)), file).toBe(0o600);
    expect(mode(join(state, 'mailbox.jsonl'))).toBe(0o600);
  });

  it('stores the digest of each refresh token it issues, refreshes and revokes by the token, and refuses the digest', async () => {
    const state = folder();
    const cognito = await startCognito(state);
    const client = new CognitoIdentityProviderClient(localClientConfig(cognito.endpoint, 'us-east-1'));
    try {
      const pool = await client.send(new CreateUserPoolCommand({ PoolName: 'tokens', UsernameAttributes: ['email'] }));
      const UserPoolId = pool.UserPool!.Id!;
      const { UserPoolClient } = await client.send(
        new CreateUserPoolClientCommand({
          UserPoolId,
          ClientName: 'web',
          ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
          EnableTokenRevocation: true,
        }),
      );
      const ClientId = UserPoolClient!.ClientId!;
      const email = 'ada@caracal.local';
      await client.send(
        new AdminCreateUserCommand({
          UserPoolId,
          Username: email,
          DesiredDeliveryMediums: ['EMAIL'],
          UserAttributes: [{ Name: 'email', Value: email }],
        }),
      );
      const temporary = cognito.messages.filter((m) => m.to === email).at(-1)!.code!;
      const signIn = (password: string) =>
        client.send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId,
            AuthParameters: { USERNAME: email, PASSWORD: password },
          }),
        );
      const challenge = await signIn(temporary);
      const first = await client.send(
        new RespondToAuthChallengeCommand({
          ClientId,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session: challenge.Session,
          ChallengeResponses: { USERNAME: email, NEW_PASSWORD: PASSWORD },
        }),
      );
      const second = await signIn(PASSWORD);
      const tokens = [first.AuthenticationResult!.RefreshToken!, second.AuthenticationResult!.RefreshToken!];
      const poolFile = readFileSync(join(state, 'cognito', `${UserPoolId}.json`), 'utf8');
      for (const token of tokens) {
        expect(poolFile).not.toContain(token);
        expect(poolFile).toContain(refreshTokenDigest(token));
      }

      const refresh = (token: string) =>
        client.send(
          new InitiateAuthCommand({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId, AuthParameters: { REFRESH_TOKEN: token } }),
        );
      expect((await refresh(tokens[0])).AuthenticationResult?.AccessToken).toBeTruthy();
      const viaAmplify = await client.send(new GetTokensFromRefreshTokenCommand({ ClientId, RefreshToken: tokens[1] }));
      expect(viaAmplify.AuthenticationResult?.IdToken).toBeTruthy();
      // What the file holds is not a token.
      await expect(refresh(refreshTokenDigest(tokens[0]))).rejects.toMatchObject({ name: 'NotAuthorizedException' });

      await client.send(new RevokeTokenCommand({ ClientId, Token: tokens[0] }));
      await expect(refresh(tokens[0])).rejects.toMatchObject({
        name: 'NotAuthorizedException',
        message: 'Refresh Token has been revoked',
      });
      expect((await refresh(tokens[1])).AuthenticationResult?.AccessToken).toBeTruthy();
      expect(readFileSync(join(state, 'cognito', `${UserPoolId}.json`), 'utf8')).not.toContain(refreshTokenDigest(tokens[0]));
    } finally {
      client.destroy();
      await cognito.stop();
    }
  });
});

describe('requests from this machine', () => {
  const request = (remoteAddress: string, headers: Record<string, string>) =>
    ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it.each([
    ['127.0.0.1', { host: 'localhost:3000' }],
    ['::1', { host: '[::1]:3000' }],
    ['::ffff:127.0.0.1', { host: '127.0.0.1:3000', origin: 'http://localhost:3000' }],
    ['127.0.0.1', { host: 'LOCALHOST:3000', origin: 'http://127.0.0.1:3000' }],
  ])('from %s with %j are', (address, headers) => {
    expect(fromThisMachine(request(address, headers))).toBe(true);
  });

  it.each([
    ['192.168.1.20', { host: 'localhost:3000' }],
    ['10.0.0.5', { host: '127.0.0.1:3000' }],
    ['::ffff:192.168.1.20', { host: 'localhost:3000' }],
    ['127.0.0.1', { host: 'rebound.example:3000' }],
    ['127.0.0.1', { host: 'localhost.rebound.example:3000' }],
    ['127.0.0.1', { host: 'localhost@rebound.example' }],
    ['127.0.0.1', {}],
    ['127.0.0.1', { host: 'localhost:3000', origin: 'http://rebound.example:3000' }],
    ['127.0.0.1', { host: 'localhost:3000', origin: 'null' }],
  ])('from %s with %j are not', (address, headers) => {
    expect(fromThisMachine(request(address, headers))).toBe(false);
  });
});
