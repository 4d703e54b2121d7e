// The tests' authenticator app: time-based one-time passwords (RFC 6238 over RFC 4226 HOTP) computed from the
// base32 secret Cognito hands out when a user sets up TOTP, as a person's authenticator app would.

export interface TotpOptions {
  /** Seconds per time step (30 for authenticator apps). */
  readonly period?: number;
  /** Code length (6 for authenticator apps). */
  readonly digits?: number;
  readonly algorithm?: 'SHA-1' | 'SHA-256' | 'SHA-512';
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Decodes RFC 4648 base32 (case-insensitive; spaces, dashes and trailing '=' ignored). */
export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const character of clean) {
    const value = BASE32.indexOf(character);
    if (value < 0) throw new Error(`Not a base32 character: '${character}'`);
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >>> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** The HOTP value (RFC 4226) of a counter, as a zero-padded string of `digits` digits. */
export async function hotp(
  key: Uint8Array,
  counter: number,
  digits = 6,
  algorithm: TotpOptions['algorithm'] = 'SHA-1',
): Promise<string> {
  const message = new Uint8Array(8);
  let rest = counter;
  for (let i = 7; i >= 0; i--) {
    message[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  const cryptoKey = await crypto.subtle.importKey('raw', Uint8Array.from(key), { name: 'HMAC', hash: algorithm }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, message));
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The TOTP code of a base32 secret at a moment (Unix milliseconds). */
export async function totp(secret: string, atMs: number, options: TotpOptions = {}): Promise<string> {
  const period = options.period ?? 30;
  return hotp(base32Decode(secret), Math.floor(atMs / 1000 / period), options.digits ?? 6, options.algorithm ?? 'SHA-1');
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function totpUri(secret: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}
