// The pure pieces of the Cognito stand-in: the password policy check, masked destinations, message texts and
// the mailbox page (which must never let a message's text become markup).
import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../local/services/cognito';
import { maskEmail } from '../../local/services/cognito-flows/account';
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
