// p_row_id: a 128-bit hash of the input position, so reprocessing the same object yields the same ids and
// the lake does not hold duplicates. The position is the log source, the object (S3 key, or any stream
// name), the 1-based line number and the event's index within that line.

export interface RowPosition {
  sourceId: string;
  objectKey: string;
  lineNumber: number;
  index: number;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The four lanes of hash128 while it reads its text. */
interface Lanes {
  a: number;
  b: number;
  c: number;
  d: number;
}

function absorb(lanes: Lanes, text: string): void {
  let { a, b, c, d } = lanes;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    a = Math.imul(a ^ k, 0x01000193);
    b = Math.imul(b ^ k, 0x5bd1e995);
    c = Math.imul(c ^ k, 0x1b873593);
    d = Math.imul(d ^ k, 0xcc9e2d51);
    a = ((a << 13) | (a >>> 19)) ^ d;
    c = ((c << 17) | (c >>> 15)) ^ b;
  }
  lanes.a = a;
  lanes.b = b;
  lanes.c = c;
  lanes.d = d;
}

// Two hex digits per byte from a table: four times faster than toString(16) and padStart.
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex = (h: number) => BYTE_HEX[h >>> 24] + BYTE_HEX[(h >>> 16) & 255] + BYTE_HEX[(h >>> 8) & 255] + BYTE_HEX[h & 255];

function finish({ a, b, c, d }: Lanes): string {
  a = fmix(a + b);
  b = fmix(b ^ c);
  c = fmix(c + d);
  d = fmix(d ^ a);
  a = fmix(a ^ c);
  return hex(a) + hex(b) + hex(c) + hex(d);
}

const start = (length: number): Lanes => ({ a: 0x9e3779b1 ^ length, b: 0x85ebca77, c: 0xc2b2ae3d, d: 0x27d4eb2f });

export function hash128(text: string): string {
  const lanes = start(text.length);
  absorb(lanes, text);
  return finish(lanes);
}

/**
 * Every row of an object shares the position's prefix (source and object key): its lanes are kept, per total
 * length (the first lane starts from it), for the object being read, so each row hashes only its line number
 * and index. The result is hash128 of the whole position text.
 */
let cachedSource: string | undefined;
let cachedObject: string | undefined;
let cachedPrefix = '';
let cachedLanes = new Map<number, Lanes>();
const MAX_CACHED_LENGTHS = 64;

export function rowId(position: RowPosition): string {
  // The prefix text is made (and compared) only when the source or the object changes.
  if (position.sourceId !== cachedSource || position.objectKey !== cachedObject) {
    const prefix = `${position.sourceId}\u0000${position.objectKey}\u0000`;
    cachedSource = position.sourceId;
    cachedObject = position.objectKey;
    if (prefix !== cachedPrefix) {
      cachedPrefix = prefix;
      cachedLanes = new Map();
    }
  }
  const prefix = cachedPrefix;
  const suffix = `${position.lineNumber}\u0000${position.index}`;
  const length = prefix.length + suffix.length;
  let after = cachedLanes.get(length);
  if (!after) {
    after = start(length);
    absorb(after, prefix);
    if (cachedLanes.size < MAX_CACHED_LENGTHS) cachedLanes.set(length, after);
  }
  const lanes = { ...after };
  absorb(lanes, suffix);
  return finish(lanes);
}
