// Destination secrets at rest: AES-256-GCM locally (bound to the destination id, tamper-evident), KMS on AWS
// (the destination id as encryption context), the box the environment selects, and the local key file.
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENV } from '../../../functions/lib/env';
import { aesBox, kmsBox, localKeyFromFile, secretBox } from '../../../functions/lib/destinations/secrets';

afterEach(() => vi.unstubAllEnvs());

describe('the local box (AES-256-GCM)', () => {
  const box = aesBox(randomBytes(32));

  it('seals and opens a secret for the same destination, never leaving it in clear', async () => {
    const sealed = await box.encrypt('https://hooks.slack.com/services/T/B/secret', 'destination-1');
    expect(sealed).toMatch(/^aes:v1:/);
    expect(sealed).not.toContain('secret');
    expect(await box.encrypt('same', 'd')).not.toBe(await box.encrypt('same', 'd'));
    expect(await box.decrypt(sealed, 'destination-1')).toBe('https://hooks.slack.com/services/T/B/secret');
  });

  it('refuses a ciphertext moved to another destination, changed, or sealed under another key', async () => {
    const sealed = await box.encrypt('token', 'destination-1');
    await expect(box.decrypt(sealed, 'destination-2')).rejects.toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2], 'base64url');
    body[0] ^= 1;
    await expect(box.decrypt([parts[0], parts[1], body.toString('base64url')].join('.'), 'destination-1')).rejects.toThrow();
    await expect(aesBox(randomBytes(32)).decrypt(sealed, 'destination-1')).rejects.toThrow();
    await expect(box.decrypt('kms:v1:AAAA', 'destination-1')).rejects.toThrow(/local key/);
  });

  it('needs a 32-byte key', () => {
    expect(() => aesBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('the KMS box', () => {
  it('encrypts and decrypts under the key with the destination id as encryption context', async () => {
    const sent: Array<EncryptCommand | DecryptCommand> = [];
    const fake = {
      send: async (command: EncryptCommand | DecryptCommand) => {
        sent.push(command);
        return command instanceof EncryptCommand ? { CiphertextBlob: Buffer.from('blob') } : { Plaintext: Buffer.from('token') };
      },
    } as unknown as KMSClient;
    const box = kmsBox('arn:aws:kms:eu-west-1:123456789012:key/abc', () => fake);
    const sealed = await box.encrypt('token', 'destination-1');
    expect(sealed).toBe(`kms:v1:${Buffer.from('blob').toString('base64')}`);
    expect(await box.decrypt(sealed, 'destination-1')).toBe('token');
    expect(sent[0].input).toMatchObject({
      KeyId: 'arn:aws:kms:eu-west-1:123456789012:key/abc',
      EncryptionContext: { destinationId: 'destination-1' },
    });
    expect(sent[1].input.EncryptionContext).toEqual({ destinationId: 'destination-1' });
    await expect(box.decrypt('aes:v1:a.b.c', 'destination-1')).rejects.toThrow(/KMS/);
  });
});

describe('the box the environment selects', () => {
  it('is the local key when set (it wins over a KMS key), else an error naming the variables', async () => {
    vi.stubEnv(ENV.destinationsLocalKey, randomBytes(32).toString('base64'));
    vi.stubEnv(ENV.destinationsKmsKey, 'arn:aws:kms:eu-west-1:123456789012:key/abc');
    expect(await secretBox().encrypt('x', 'd')).toMatch(/^aes:v1:/);
    vi.stubEnv(ENV.destinationsLocalKey, '');
    vi.stubEnv(ENV.destinationsKmsKey, '');
    expect(() => secretBox()).toThrow(/DESTINATIONS_KMS_KEY/);
  });
});

describe('the local key file', () => {
  it('is made once, readable by its owner only, and read again after', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'caracal-key-')), 'destinations-key');
    const key = localKeyFromFile(file);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(localKeyFromFile(file)).toBe(key);
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
    writeFileSync(file, 'short');
    expect(() => localKeyFromFile(file)).toThrow(/32-byte key/);
  });
});
