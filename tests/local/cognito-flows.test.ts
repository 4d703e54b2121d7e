// The pure pieces of the Cognito stand-in: the password policy check, masked destinations, message texts and
// the mailbox page (which must never let a message's text become markup).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../local/services/cognito';
import { AccountFlows, maskEmail, RESET_CODE_MS } from '../../local/services/cognito-flows/account';
import { SigningKey } from '../../local/services/cognito-flows/keys';
import type { CognitoErrors, StoredUser, UserPool, UserPools } from '../../local/services/cognito-flows/types';
import { messageText } from '../../local/services/cognito-flows/messages';
import { policyViolation } from '../../local/services/cognito-flows/password-policy';
import { mailboxPage } from '../../local/services/cognito-mailbox';

const POLICY = { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true };

describe('the password policy', () => {
  it.each([
    ['Short-1a', 'Password not long enough'],
    ['NO-LOWERCASE-2026', 'Password must have lowercase characters'],
    ['no-uppercase-2026', 'Password must have uppercase characters'],
    ['No-Numbers-Here!', 'Password must have numeric characters'],
    ['NoSymbolsHere2026', 'Password must have symbol characters'],
    ['Inner spaces 2026 Ok', undefined],
    ['Tawny-Lynx-2026!', undefined],
  ])('%j → %s', (password, violation) => {
    expect(policyViolation(password, POLICY)).toBe(violation);
  });

  it('counts characters, and checks only what the pool requires', () => {
    expect(policyViolation('🐈🐈🐈🐈🐈🐈🐈🐈Ab1!', POLICY)).toBeUndefined();
    expect(policyViolation('alllowercase', { MinimumLength: 8 })).toBeUndefined();
    expect(policyViolation('anything', undefined)).toBeUndefined();
  });
});

describe('masked destinations', () => {
  it('shows the first letters and the top-level domain, as Cognito does', () => {
    expect(maskEmail('ada@example.com')).toBe('a***@e***.com');
    expect(maskEmail('analyst@caracal.local')).toBe('a***@c***.local');
    expect(maskEmail('no-at-sign')).toBe('n***@***');
  });
});

describe('message texts', () => {
  it('words invitations and reset codes as the deployed user pool does', () => {
    expect(messageText('AdminCreateUser', 'Temp-Pass-1!', 'ada@example.com')).toEqual({
      emailSubject: 'Your Caracal account',
      emailMessage: 'You have been invited to Caracal. Sign in with ada@example.com and the temporary password Temp-Pass-1!',
    });
    expect(messageText('ForgotPassword', '123456', 'ada@example.com').emailSubject).toBe('Reset your Caracal password');
    expect(messageText('ForgotPassword', '123456', 'ada@example.com').emailMessage).toContain('123456');
    expect(messageText('SomethingElse', '42', 'ada@example.com').emailMessage).toBe('Your code is 42');
  });
});

describe('the mailbox page', () => {
  const message = (at: string, body: string, code: string | null = null): MailMessage => ({
    at,
    to: 'ada@example.com',
    subject: 'Your Caracal account',
    body,
    code,
  });

  it('lists messages newest first', () => {
    const html = mailboxPage([
      message('2026-11-21T10:00:00Z', 'older message'),
      message('2026-11-21T11:00:00Z', 'newer message'),
    ]);
    expect(html.indexOf('newer message')).toBeLessThan(html.indexOf('older message'));
  });

  it('escapes what a message carries', () => {
    const html = mailboxPage([message('2026-11-21T10:00:00Z', '<script>alert(1)</script>', `"><img src=x onerror=alert(1)>`)]);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });

  it('says when there is nothing yet', () => {
    expect(mailboxPage([])).toContain('No messages yet.');
  });
});

describe('password reset codes', () => {
  class CognitoError extends Error {
    constructor(
      readonly code: string,
      message: string,
    ) {
      super(message);
    }
  }
  const errors = {
    CognitoError,
    NotAuthorizedError: class extends CognitoError {
      constructor(message = 'User not authorized') {
        super('NotAuthorizedException', message);
      }
    },
    UserNotFoundError: class extends CognitoError {
      constructor(message = 'User not found.') {
        super('UserNotFoundException', message);
      }
    },
    InvalidParameterError: class extends CognitoError {
      constructor(message = 'Invalid parameter') {
        super('InvalidParameterException', message);
      }
    },
    CodeMismatchError: class extends CognitoError {
      constructor() {
        super('CodeMismatchException', 'Incorrect confirmation code');
      }
    },
  } as unknown as CognitoErrors;
  const keyFolder = mkdtempSync(join(tmpdir(), 'caracal-key-'));
  let key: SigningKey;
  beforeAll(async () => {
    key = await SigningKey.load(join(keyFolder, 'signing-key.pem'));
  });
  afterAll(() => rmSync(keyFolder, { recursive: true, force: true }));

  function setUp() {
    let now = Date.UTC(2026, 10, 21, 12);
    const users = new Map<string, StoredUser>([
      [
        'u-1',
        {
          Username: 'u-1',
          Password: 'Old-Pass-2026!',
          UserStatus: 'CONFIRMED',
          Attributes: [{ Name: 'email', Value: 'ada@example.com' }],
        },
      ],
    ]);
    const pool: UserPool = {
      options: { Id: 'pool', Policies: { PasswordPolicy: POLICY } },
      getUserByUsername: async (_ctx, name) =>
        users.get(name) ?? [...users.values()].find((u) => u.Attributes?.[0]?.Value === name) ?? null,
      saveUser: async (_ctx, user) => void users.set(user.Username, user),
      storeRefreshToken: async () => undefined,
      getUserByRefreshToken: async () => null,
    };
    const pools: UserPools = {
      getUserPoolForClientId: async () => pool,
      getUserPool: async () => pool,
      getAppClient: async () => ({ ClientId: 'client', PreventUserExistenceErrors: 'ENABLED' }),
    };
    const flows = new AccountFlows(pools, errors, key, () => now);
    const sendCode = flows.forgotPassword(async () => {
      users.set('u-1', { ...users.get('u-1')!, ConfirmationCode: '123456' });
      return {};
    });
    const reset = flows.confirmForgotPassword(async (_ctx, req) => {
      users.set('u-1', { ...users.get('u-1')!, Password: String(req.Password), ConfirmationCode: undefined });
      return {};
    });
    return { users, sendCode, reset, later: (ms: number) => (now += ms) };
  }

  it('accepts the code within the hour, once', async () => {
    const { users, sendCode, reset, later } = setUp();
    await sendCode({}, { ClientId: 'client', Username: 'ada@example.com' });
    later(RESET_CODE_MS - 1000);
    await reset({}, { ClientId: 'client', Username: 'ada@example.com', ConfirmationCode: '123456', Password: 'New-Pass-2026!' });
    expect(users.get('u-1')?.Password).toBe('New-Pass-2026!');
    await expect(
      reset({}, { ClientId: 'client', Username: 'ada@example.com', ConfirmationCode: '123456', Password: 'Other-Pass-2026!' }),
    ).rejects.toMatchObject({ code: 'CodeMismatchException' });
  });

  it('refuses an expired code, a missing one and a wrong type, and keeps the password', async () => {
    const { users, sendCode, reset, later } = setUp();
    await sendCode({}, { ClientId: 'client', Username: 'ada@example.com' });
    for (const ConfirmationCode of [undefined, '', 123456, '654321', { $ne: null }]) {
      await expect(
        reset({}, { ClientId: 'client', Username: 'ada@example.com', ConfirmationCode, Password: 'New-Pass-2026!' }),
      ).rejects.toMatchObject({ code: 'CodeMismatchException' });
    }
    later(RESET_CODE_MS + 1000);
    await expect(
      reset({}, { ClientId: 'client', Username: 'ada@example.com', ConfirmationCode: '123456', Password: 'New-Pass-2026!' }),
    ).rejects.toMatchObject({ code: 'ExpiredCodeException' });
    expect(users.get('u-1')?.Password).toBe('Old-Pass-2026!');
  });

  it('answers an unknown email as if a code went out', async () => {
    const { sendCode } = setUp();
    await expect(sendCode({}, { ClientId: 'client', Username: 'nobody@example.com' })).resolves.toEqual({
      CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'n***@e***.com' },
    });
  });
});
