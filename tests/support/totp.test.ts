import { describe, expect, it } from 'vitest';
import { base32Decode, hotp, totp, totpUri } from './totp';

const ascii = (text: string) => new TextEncoder().encode(text);
const base32 = (bytes: Uint8Array) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
};

const SHA1_SEED = '12345678901234567890';
const SHA256_SEED = '12345678901234567890123456789012';
const SHA512_SEED = '1234567890123456789012345678901234567890123456789012345678901234';

describe('base32Decode', () => {
  it('decodes RFC 4648 test vectors', () => {
    const cases: Array<[string, string]> = [
      ['', ''],
      ['MY======', 'f'],
      ['MZXQ====', 'fo'],
      ['MZXW6===', 'foo'],
      ['MZXW6YQ=', 'foob'],
      ['MZXW6YTB', 'fooba'],
      ['MZXW6YTBOI======', 'foobar'],
    ];
    for (const [encoded, decoded] of cases) expect(new TextDecoder().decode(base32Decode(encoded))).toBe(decoded);
  });

  it('ignores case, spaces and dashes, as secrets are often shown in groups', () => {
    expect(base32Decode('mzxw 6ytb-oi')).toEqual(base32Decode('MZXW6YTBOI'));
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toEqual(ascii(SHA1_SEED));
  });

  it('refuses characters outside the alphabet', () => {
    expect(() => base32Decode('ABC1')).toThrow("Not a base32 character: '1'");
    expect(() => base32Decode('<script>')).toThrow(/Not a base32 character/);
  });
});

describe('hotp (RFC 4226 appendix D)', () => {
  it('computes the ten published values', async () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    const actual = await Promise.all(expected.map((_, counter) => hotp(ascii(SHA1_SEED), counter)));
    expect(actual).toEqual(expected);
  });
});

describe('totp (RFC 6238 appendix B)', () => {
  const vectors: Array<[number, string, string, string]> = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  it.each(vectors)('at %i s', async (seconds, sha1, sha256, sha512) => {
    const at = seconds * 1000;
    expect(await totp(base32(ascii(SHA1_SEED)), at, { digits: 8 })).toBe(sha1);
    expect(await totp(base32(ascii(SHA256_SEED)), at, { digits: 8, algorithm: 'SHA-256' })).toBe(sha256);
    expect(await totp(base32(ascii(SHA512_SEED)), at, { digits: 8, algorithm: 'SHA-512' })).toBe(sha512);
  });

  it('gives six digits by default, the same code within a 30-second step and a new one after it', async () => {
    const secret = base32(ascii(SHA1_SEED));
    const code = await totp(secret, 59_000);
    expect(code).toBe('287082');
    expect(await totp(secret, 30_000)).toBe(code);
    expect(await totp(secret, 60_000)).not.toBe(code);
  });
});

describe('totpUri', () => {
  it('names the issuer and account and carries the secret', () => {
    expect(totpUri('JBSWY3DPEHPK3PXP', 'ada@example.com', 'Caracal')).toBe(
      'otpauth://totp/Caracal%3Aada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Caracal&algorithm=SHA1&digits=6&period=30',
    );
  });
});
