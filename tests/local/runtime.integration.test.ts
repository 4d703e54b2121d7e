// The local runtime against the product's own template: sign-in through the Cognito stand-in, GraphQL with
// AppSync semantics, the Lambda Invoke API. (S3 notifications into queues: events.integration.test.ts; the
// product's ingest path end to end: tests/pipeline/.)
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { SignJWT, generateKeyPair } from 'jose';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_FLAG_DEFAULTS } from '../../core/feature-flags';
import { localClientConfig } from '../../local/services/net';
import { graphql, signIn, startTestRuntime, type TestRuntime } from './harness';

const NEW_PASSWORD = 'Correct-Horse-42-Battery';
let runtime: TestRuntime;
let idToken: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  const [admin] = runtime.createdUsers;
  ({ idToken } = await signIn(runtime, admin.username, admin.temporaryPassword, NEW_PASSWORD));
});
afterAll(() => runtime?.stop());

const ME = {
  query:
    '{ me { id email role { name permissions } } appConfig { stage region accountId passwordMinLength mfaMode created version } }',
};

describe('first start', () => {
  it('creates the administrator from the template with a temporary password meeting the policy', () => {
    expect(runtime.createdUsers).toHaveLength(1);
    const [admin] = runtime.createdUsers;
    expect(admin.username).toBe('admin@caracal.local');
    expect(admin.temporaryPassword).toMatch(/[A-Z]/);
    expect(admin.temporaryPassword).toMatch(/[a-z]/);
    expect(admin.temporaryPassword).toMatch(/\d/);
    expect(admin.temporaryPassword.length).toBeGreaterThanOrEqual(12);
  });

  it('serves config.json for the SPA on the same origin', async () => {
    const config = await (await fetch(`${runtime.url}/config.json`)).json();
    expect(config).toMatchObject({
      authFlowType: 'USER_PASSWORD_AUTH',
      graphqlUrl: `${runtime.url}/graphql`,
      userPoolEndpoint: `${runtime.url}/cognito`,
      // The template's flags (the api function's environment), every one resolved.
      featureFlags: FEATURE_FLAG_DEFAULTS,
    });
  });

  it('serves config.json with the URLs of the loopback name the browser used, and its own URL for any other host', async () => {
    const { port } = new URL(runtime.url);
    const configAt = (host: string) =>
      new Promise<{ graphqlUrl: string; userPoolEndpoint: string }>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/config.json', headers: { host } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve(JSON.parse(body)));
        }).on('error', reject);
      });
    expect(await configAt(`127.0.0.1:${port}`)).toMatchObject({
      graphqlUrl: `http://127.0.0.1:${port}/graphql`,
      userPoolEndpoint: `http://127.0.0.1:${port}/cognito`,
    });
    expect(await configAt(`localhost:${port}`)).toMatchObject({ graphqlUrl: `http://localhost:${port}/graphql` });
    expect(await configAt(`evil.example:${port}`)).toMatchObject({ graphqlUrl: `${runtime.url}/graphql` });
    expect(await configAt(`127.0.0.1:1`)).toMatchObject({ graphqlUrl: `${runtime.url}/graphql` });
  });

  it('serves the SPA with a fallback to index.html for client routes', async () => {
    const page = await fetch(`${runtime.url}/some/client/route`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(`${runtime.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/favicon.png`)).status).toBe(404);
    for (const route of ['/configure/schemas/Custom.Acme.Audit/', '/configure/schemas/Custom.Acme.Audit']) {
      const dotted = await fetch(`${runtime.url}${route}`);
      expect(dotted.status, route).toBe(200);
      expect(await dotted.text()).toContain('<div id="root">');
    }
  });
});

describe('sign-in through the Cognito stand-in', () => {
  it('checks the password of a user who still has a temporary one, and answers as Cognito does', async () => {
    const { CognitoIdentityProviderClient, AdminCreateUserCommand, InitiateAuthCommand } =
      await import('@aws-sdk/client-cognito-identity-provider');
    const client = new CognitoIdentityProviderClient(localClientConfig(runtime.endpoints.cognito, 'us-east-1'));
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId: runtime.webConfig!.userPoolId,
        Username: 'new@caracal.local',
        TemporaryPassword: 'Temp-Password-123',
        MessageAction: 'SUPPRESS',
      }),
    );
    const attempt = (password: string) =>
      client.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: runtime.webConfig!.userPoolClientId,
          AuthParameters: { USERNAME: 'new@caracal.local', PASSWORD: password },
        }),
      );
    await expect(attempt('definitely-wrong')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    await expect(attempt('Temp-Password-123')).resolves.toMatchObject({ ChallengeName: 'NEW_PASSWORD_REQUIRED' });
    await expect(signIn(runtime, 'admin@caracal.local', 'Wrong-Password-1')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    await expect(signIn(runtime, 'nobody@caracal.local', 'Wrong-Password-1')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
    client.destroy();
  });
});

describe('GraphQL with AppSync semantics', () => {
  it('answers the signed-in user and the app config through the api function', async () => {
    const { status, body } = await graphql(runtime, ME, idToken);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(body.data?.me).toMatchObject({ email: 'admin@caracal.local', role: { name: 'Admin' } });
    expect(body.data?.appConfig).toMatchObject({
      stage: 'local',
      region: 'us-east-1',
      accountId: '000000000000',
      passwordMinLength: 12,
      mfaMode: 'OPTIONAL',
    });
    const again = await graphql(runtime, ME, idToken);
    expect((again.body.data?.appConfig as { created: string }).created).toBe(
      (body.data?.appConfig as { created: string }).created,
    );
  });

  it('refuses a request without a token', async () => {
    const { status, body } = await graphql(runtime, ME);
    expect(status).toBe(401);
    expect(body.errors).toEqual([{ errorType: 'UnauthorizedException', message: 'Valid authorization header not provided.' }]);
  });

  it('refuses a forged token signed by another key', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString());
    const header = JSON.parse(Buffer.from(idToken.split('.')[0], 'base64url').toString());
    const forged = await new SignJWT(claims).setProtectedHeader(header).sign(privateKey);
    const { status, body } = await graphql(runtime, ME, forged);
    expect(status).toBe(401);
    expect(body.errors?.[0]).toMatchObject({ errorType: 'UnauthorizedException' });
  });

  it('refuses an expired token even with a valid signature', async () => {
    const key = createPrivateKey(readFileSync(join(runtime.stateDir, 'cognito', 'signing-key.pem'), 'utf8'));
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString());
    const header = JSON.parse(Buffer.from(idToken.split('.')[0], 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 }).setProtectedHeader(header).sign(key);
    const { status, body } = await graphql(runtime, ME, expired);
    expect(status).toBe(401);
    expect(body.errors).toEqual([{ errorType: 'UnauthorizedException', message: 'Token has expired.' }]);
  });

  it('refuses garbage in the Authorization header', async () => {
    const { status, body } = await graphql(runtime, ME, 'not-a-jwt');
    expect(status).toBe(401);
    expect(body.errors?.[0]).toMatchObject({ errorType: 'UnauthorizedException', message: 'Unable to parse JWT token.' });
  });

  it('answers malformed GraphQL, unknown fields and a non-JSON body with errors, and keeps serving', async () => {
    const syntax = await graphql(runtime, { query: '{ me { id ' }, idToken);
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors?.[0].message).toMatch(/^Invalid syntax/);
    const unknown = await graphql(runtime, { query: '{ nope }' }, idToken);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0]).toMatchObject({
      path: null,
      message: expect.stringMatching(/^Validation error: Cannot query field "nope"/),
    });
    const notJson = await graphql(runtime, '{not json', idToken);
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors?.[0]).toMatchObject({ errorType: 'MalformedHttpRequestException' });
    const ok = await graphql(runtime, ME, idToken);
    expect(ok.status).toBe(200);
  });

  it('refuses an oversized body', async () => {
    const huge = { query: `{ me { id } } # ${'x'.repeat(2 * 1024 * 1024)}` };
    const { status, body } = await graphql(runtime, huge, idToken);
    expect(status).toBe(413);
    expect(body.errors?.[0]).toMatchObject({ errorType: 'PayloadTooLargeException' });
  });
});

describe('events and functions', () => {
  it('answers Lambda Invoke calls with the function result or its error', async () => {
    const lambda = new LambdaClient(localClientConfig(runtime.endpoints.lambda, 'us-east-1'));
    const apiFunction = [...runtime.functions.values()].find((f) => f.spec.logicalId.startsWith('ApiApiFunction'))!;
    // The identity AppSync would pass for the signed-in administrator (the API serves users it knows only).
    const { sub } = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()) as { sub: string };
    const event = {
      arguments: {},
      identity: {
        sub,
        issuer: '',
        username: sub,
        claims: {},
        sourceIp: [],
        defaultAuthStrategy: 'ALLOW',
        groups: ['Admin'],
      },
      source: null,
      request: { headers: {}, domainName: null },
      prev: null,
      info: { fieldName: 'appConfig', parentTypeName: 'Query', variables: {}, selectionSetList: [], selectionSetGraphQL: '' },
      stash: {},
    };
    const ok = await lambda.send(new InvokeCommand({ FunctionName: apiFunction.spec.name, Payload: JSON.stringify(event) }));
    expect(ok.FunctionError).toBeUndefined();
    expect(JSON.parse(Buffer.from(ok.Payload!).toString())).toMatchObject({ data: { stage: 'local' } });
    // An error raised on purpose is an answer the resolvers' response template turns into a GraphQL error.
    const refused = await lambda.send(
      new InvokeCommand({
        FunctionName: apiFunction.spec.name,
        Payload: JSON.stringify({ ...event, info: { ...event.info, fieldName: 'nothing' } }),
      }),
    );
    expect(refused.FunctionError).toBeUndefined();
    expect(JSON.parse(Buffer.from(refused.Payload!).toString())).toEqual({
      error: { type: 'Unauthorized', message: 'You are not authorized to perform this request', info: null },
    });
    // A function that fails is reported as Lambda does: FunctionError and the error's type and message.
    const crashed = await lambda.send(new InvokeCommand({ FunctionName: apiFunction.spec.name, Payload: '{}' }));
    expect(crashed.FunctionError).toBe('Unhandled');
    expect(JSON.parse(Buffer.from(crashed.Payload!).toString())).toMatchObject({ errorType: 'TypeError' });
    await expect(lambda.send(new InvokeCommand({ FunctionName: 'no-such-function', Payload: '{}' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });
    lambda.destroy();
  });
});
