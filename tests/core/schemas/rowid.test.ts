// p_row_id: rowId hashes only each row's line number and index after the object's prefix (kept per length),
// and must give exactly hash128 of the whole position text, whatever the order of objects and lengths.
import { describe, expect, it } from 'vitest';
import { hash128, rowId } from '../../../core/schemas/rowid';

describe('row ids', () => {
  it('keeps the values the lake already holds', () => {
    expect(hash128('source-1\u0000logs/2026/11/21/x.json.gz\u000012\u00000')).toBe('d078f44bf7ef05a8989b1ee18fd9083b');
    expect(hash128('')).toBe('856639404654c0288f6c3fa205a740b7');
    expect(hash128('a')).toBe('54245923d0a31d31048db82c846c849d');
  });

  it('equals hash128 of the position text across objects, lines of every length and indexes', () => {
    const positions: [string, string, number, number][] = [];
    for (const sourceId of ['s', 'source-1', '']) {
      for (const objectKey of ['a.json.gz', 'logs/2026/11/21/x.json.gz', '', 'ключ/ü']) {
        for (const lineNumber of [1, 9, 10, 99, 100, 12345, 1_000_000])
          for (const index of [0, 1, 12]) positions.push([sourceId, objectKey, lineNumber, index]);
      }
    }
    // In order (one object after another), then shuffled (the prefix changes on every row).
    const shuffled = [...positions].sort((a, b) => ((a[2] * 31 + a[3]) % 7) - ((b[2] * 31 + b[3]) % 7));
    for (const [sourceId, objectKey, lineNumber, index] of [...positions, ...shuffled]) {
      expect(rowId({ sourceId, objectKey, lineNumber, index })).toBe(
        hash128(`${sourceId}\u0000${objectKey}\u0000${lineNumber}\u0000${index}`),
      );
    }
  });
});
