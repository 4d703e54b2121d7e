import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5, sha1, sha256, sha512 } from '../../../core/schemas/index';

const inputs = [
  '',
  'abc',
  'x'.repeat(55),
  'x'.repeat(56),
  'x'.repeat(64),
  'y'.repeat(111),
  'y'.repeat(112),
  'é日本🙂'.repeat(50),
];

describe('mask digests in plain TypeScript', () => {
  for (const [name, digest] of [
    ['md5', md5],
    ['sha1', sha1],
    ['sha256', sha256],
    ['sha512', sha512],
  ] as const) {
    it(`${name} matches node:crypto`, () => {
      for (const text of inputs)
        expect(digest(text), `${name}(${text.slice(0, 10)}…)`).toBe(createHash(name).update(text).digest('hex'));
    });
  }
});
