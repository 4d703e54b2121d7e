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

export function hash128(text: string): string {
  let a = 0x9e3779b1 ^ text.length;
  let b = 0x85ebca77;
  let c = 0xc2b2ae3d;
  let d = 0x27d4eb2f;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    a = Math.imul(a ^ k, 0x01000193);
    b = Math.imul(b ^ k, 0x5bd1e995);
    c = Math.imul(c ^ k, 0x1b873593);
    d = Math.imul(d ^ k, 0xcc9e2d51);
    a = ((a << 13) | (a >>> 19)) ^ d;
    c = ((c << 17) | (c >>> 15)) ^ b;
  }
  a = fmix(a + b);
  b = fmix(b ^ c);
  c = fmix(c + d);
  d = fmix(d ^ a);
  a = fmix(a ^ c);
  let out = '';
  for (const h of [a, b, c, d]) out += h.toString(16).padStart(8, '0');
  return out;
}

export function rowId(position: RowPosition): string {
  return hash128(`${position.sourceId}\u0000${position.objectKey}\u0000${position.lineNumber}\u0000${position.index}`);
}
