// Cognito never keeps a password; cognito-local kept each one, the temporary ones too, in clear in its state
// file. Here every password it stores becomes a salted scrypt hash before it reaches the file, and a password
// is checked against its hash in constant time. cognito-local still compares what a caller sent with the
// stored value in the sign-in flows and ChangePassword: those calls are wrapped (./sign-in.ts, ./account.ts),
// the password is checked here first, and cognito-local receives the stored hash to compare with itself.
// A state folder from an earlier version is migrated when its user pool is opened: each clear password is
// hashed once, and the pool is marked as holding hashes. The same store keeps refresh tokens as digests
// (./refresh-tokens.ts), and digests those an earlier version kept in clear.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { digestRefreshTokens } from './refresh-tokens';
import type { DataStore, DataStoreFactory, StoredUser } from './types';

const SCHEME = 'scrypt';
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Checked against when a user has no hash, so an unknown user costs as long as a wrong password. */
const NO_SALT = Buffer.alloc(SALT_BYTES);
/** The key a user pool's store marks, once every password it holds is a hash. */
const STORAGE_MARK = 'PasswordStorage';

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, HASH_BYTES, (err, hash) => (err ? reject(err) : resolve(hash))));
}

/** `scrypt$<salt>$<hash>`, both base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return [SCHEME, salt.toString('base64url'), (await derive(password, salt)).toString('base64url')].join('$');
}

/** True when `password` is the one `stored` (a hash from hashPassword) was made from. */
export async function passwordMatches(password: unknown, stored: unknown): Promise<boolean> {
  const [scheme, salt, hash] = typeof stored === 'string' ? stored.split('$') : [];
  const valid = scheme === SCHEME && salt !== undefined && hash !== undefined;
  const expected = valid ? Buffer.from(hash, 'base64url') : Buffer.alloc(HASH_BYTES);
  const actual = await derive(typeof password === 'string' ? password : '', valid ? Buffer.from(salt, 'base64url') : NO_SALT);
  return valid && typeof password === 'string' && expected.length === actual.length && timingSafeEqual(expected, actual);
}

const isUserKey = (key: string | string[]): key is [string, string] =>
  Array.isArray(key) && key.length === 2 && key[0] === 'Users';

/** A user pool's store that hashes each new password, and digests each new refresh token, before saving a user. */
class HashingStore implements DataStore {
  constructor(private readonly store: DataStore) {}

  /**
   * A copy of what the store holds: cognito-local changes what it read in place before saving it (it pushes a new
   * refresh token onto the user's list), which would otherwise put the clear token in the store's memory, and in
   * the file if another save ran first.
   */
  async get<T>(ctx: unknown, key: string | string[], defaultValue?: T): Promise<T | null> {
    return structuredClone(await this.store.get(ctx, key, defaultValue));
  }

  async getRoot<T>(ctx: unknown): Promise<T | null> {
    return structuredClone(await this.store.getRoot<T>(ctx));
  }

  delete(ctx: unknown, key: string | string[]): Promise<void> {
    return this.store.delete(ctx, key);
  }

  /**
   * cognito-local saves a user with the password it read (the hash) or with a new one (clear), and with the
   * refresh tokens it read (digests) plus the one it issued now (clear).
   */
  async set<T>(ctx: unknown, key: string | string[], value: T): Promise<void> {
    if (!isUserKey(key) || typeof value !== 'object' || value === null) return this.store.set(ctx, key, value);
    const user = digestRefreshTokens(value as unknown as StoredUser);
    if (typeof user.Password === 'string') {
      const saved = await this.store.get<StoredUser>(ctx, key);
      if (saved?.Password !== user.Password) {
        return this.store.set(ctx, key, { ...user, Password: await hashPassword(user.Password) });
      }
    }
    return this.store.set(ctx, key, user);
  }

  /** Hashes the clear passwords a store from an earlier version holds, once, and digests its clear refresh tokens. */
  async migrate(ctx: unknown): Promise<void> {
    const hashed = (await this.store.get(ctx, STORAGE_MARK)) === SCHEME;
    const users = await this.store.get<Record<string, StoredUser>>(ctx, 'Users', {});
    for (const user of Object.values(users ?? {})) {
      let next = digestRefreshTokens(user);
      if (!hashed && typeof user.Password === 'string') next = { ...next, Password: await hashPassword(user.Password) };
      if (next !== user) await this.store.set(ctx, ['Users', user.Username], next);
    }
    if (!hashed) await this.store.set(ctx, STORAGE_MARK, SCHEME);
  }
}

/** cognito-local's store factory, with every user pool's store hashing passwords (the app clients' store is left as is). */
export function hashingStores(factory: DataStoreFactory): DataStoreFactory {
  return {
    async create(ctx, id, defaults) {
      const store = await factory.create(ctx, id, defaults);
      if (!('Users' in defaults)) return store;
      const hashing = new HashingStore(store);
      await hashing.migrate(ctx);
      return hashing;
    },
  };
}
