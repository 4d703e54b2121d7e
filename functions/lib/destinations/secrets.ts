// Destination secrets at rest: one interface, two implementations chosen by the environment.
// - On AWS, KMS (Encrypt/Decrypt under DESTINATIONS_KMS_KEY, the destination's id as encryption context, so a
//   ciphertext copied onto another destination does not decrypt).
// - Locally, AES-256-GCM under the key the local runtime keeps in its state folder (DESTINATIONS_LOCAL_KEY,
//   base64), the destination's id as additional authenticated data.
// A stored secret is text `kms:v1:<base64>` or `aes:v1:<iv>.<tag>.<ciphertext>` (base64url parts), so a reader
// knows which key made it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { ENV, optionalEnv } from '../env';

export interface SecretBox {
  /** Encrypts `plain` for the destination `context` (its id). */
  encrypt(plain: string, context: string): Promise<string>;
  /** Decrypts what encrypt made for the same `context`; an error for anything else. */
  decrypt(sealed: string, context: string): Promise<string>;
}

const AES_PREFIX = 'aes:v1:';
const KMS_PREFIX = 'kms:v1:';

/** AES-256-GCM under a 32-byte key. */
export function aesBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The destinations key must be 32 bytes');
  return {
    async encrypt(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
      return `${AES_PREFIX}${parts.join('.')}`;
    },
    async decrypt(sealed, context) {
      if (!sealed.startsWith(AES_PREFIX)) throw new Error('Not a secret sealed with the local key');
      const [iv, tag, body] = sealed
        .slice(AES_PREFIX.length)
        .split('.')
        .map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !body) throw new Error('Malformed sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
}

let kmsClient: KMSClient | undefined;

/** KMS under `keyId`, the destination id as encryption context. */
export function kmsBox(keyId: string, client: () => KMSClient = () => (kmsClient ??= new KMSClient({}))): SecretBox {
  const encryptionContext = (context: string) => ({ destinationId: context });
  return {
    async encrypt(plain, context) {
      const out = await client().send(
        new EncryptCommand({
          KeyId: keyId,
          Plaintext: Buffer.from(plain, 'utf8'),
          EncryptionContext: encryptionContext(context),
        }),
      );
      if (!out.CiphertextBlob) throw new Error('KMS answered no ciphertext');
      return `${KMS_PREFIX}${Buffer.from(out.CiphertextBlob).toString('base64')}`;
    },
    async decrypt(sealed, context) {
      if (!sealed.startsWith(KMS_PREFIX)) throw new Error('Not a secret sealed with KMS');
      const out = await client().send(
        new DecryptCommand({
          KeyId: keyId,
          CiphertextBlob: Buffer.from(sealed.slice(KMS_PREFIX.length), 'base64'),
          EncryptionContext: encryptionContext(context),
        }),
      );
      if (!out.Plaintext) throw new Error('KMS answered no plaintext');
      return Buffer.from(out.Plaintext).toString('utf8');
    },
  };
}

/** The box the environment selects: the local key when set (local runtime), else the KMS key (AWS). */
export function secretBox(): SecretBox {
  const local = optionalEnv(ENV.destinationsLocalKey);
  if (local) return aesBox(Buffer.from(local, 'base64'));
  const keyId = optionalEnv(ENV.destinationsKmsKey);
  if (keyId) return kmsBox(keyId);
  throw new Error(`Missing environment variable ${ENV.destinationsKmsKey} (or ${ENV.destinationsLocalKey} locally)`);
}

/**
 * The local runtime's key, kept in `file` (made on first use, readable by its owner only), as base64 for
 * DESTINATIONS_LOCAL_KEY.
 */
export function localKeyFromFile(file: string): string {
  try {
    const key = readFileSync(file, 'utf8').trim();
    if (Buffer.from(key, 'base64').length === 32) return key;
    throw new Error(`${file} does not hold a 32-byte key (base64)`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
