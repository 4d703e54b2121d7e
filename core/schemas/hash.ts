// Message digests for the `mask` transform, in plain TypeScript so core runs the same in Node, Lambda and a
// browser worker, synchronously per event (Web Crypto is async only). Hex output, UTF-8 input.

const encoder = new TextEncoder();

function toHex32(words: ArrayLike<number>, littleEndian: boolean): string {
  let out = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const v = littleEndian ? ((w & 0xff) << 24) | (((w >>> 8) & 0xff) << 16) | (((w >>> 16) & 0xff) << 8) | (w >>> 24) : w;
    out += (v >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

/** Pads to whole 64-byte (or 128-byte) blocks with the bit length appended, as MD/SHA padding requires. */
function pad(bytes: Uint8Array, blockSize: number, littleEndian: boolean): DataView {
  const lengthBytes = blockSize === 128 ? 16 : 8;
  const total = Math.ceil((bytes.length + 1 + lengthBytes) / blockSize) * blockSize;
  const buf = new Uint8Array(total);
  buf.set(bytes);
  buf[bytes.length] = 0x80;
  const view = new DataView(buf.buffer);
  const bits = bytes.length * 8;
  const hi = Math.floor(bits / 2 ** 32);
  const lo = bits >>> 0;
  if (littleEndian) {
    view.setUint32(total - 8, lo, true);
    view.setUint32(total - 4, hi, true);
  } else {
    view.setUint32(total - 8, hi);
    view.setUint32(total - 4, lo);
  }
  return view;
}

const MD5_S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const MD5_K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

export function md5(text: string): string {
  const view = pad(encoder.encode(text), 64, true);
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
  const w = new Array<number>(16);
  for (let off = 0; off < view.byteLength; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4, true);
    let [a, b, c, d] = h;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      const s = MD5_S[(i >> 4) * 4 + (i % 4)];
      const sum = (a + f + MD5_K[i] + w[g]) | 0;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << s) | (sum >>> (32 - s)))) | 0;
    }
    h[0] = (h[0] + a) | 0;
    h[1] = (h[1] + b) | 0;
    h[2] = (h[2] + c) | 0;
    h[3] = (h[3] + d) | 0;
  }
  return toHex32(h, true);
}

export function sha1(text: string): string {
  const view = pad(encoder.encode(text), 64, false);
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const w = new Array<number>(80);
  for (let off = 0; off < view.byteLength; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
      w[i] = (x << 1) | (x >>> 31);
    }
    let [a, b, c, d, e] = h;
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h[0] = (h[0] + a) | 0;
    h[1] = (h[1] + b) | 0;
    h[2] = (h[2] + c) | 0;
    h[3] = (h[3] + d) | 0;
    h[4] = (h[4] + e) | 0;
  }
  return toHex32(h, false);
}

const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export function sha256(text: string): string {
  const view = pad(encoder.encode(text), 64, false);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < view.byteLength; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  return toHex32(h, false);
}

// SHA-512 round constants as [high, low] 32-bit halves.
const SHA512_K = [
  '428a2f98d728ae22',
  '7137449123ef65cd',
  'b5c0fbcfec4d3b2f',
  'e9b5dba58189dbbc',
  '3956c25bf348b538',
  '59f111f1b605d019',
  '923f82a4af194f9b',
  'ab1c5ed5da6d8118',
  'd807aa98a3030242',
  '12835b0145706fbe',
  '243185be4ee4b28c',
  '550c7dc3d5ffb4e2',
  '72be5d74f27b896f',
  '80deb1fe3b1696b1',
  '9bdc06a725c71235',
  'c19bf174cf692694',
  'e49b69c19ef14ad2',
  'efbe4786384f25e3',
  '0fc19dc68b8cd5b5',
  '240ca1cc77ac9c65',
  '2de92c6f592b0275',
  '4a7484aa6ea6e483',
  '5cb0a9dcbd41fbd4',
  '76f988da831153b5',
  '983e5152ee66dfab',
  'a831c66d2db43210',
  'b00327c898fb213f',
  'bf597fc7beef0ee4',
  'c6e00bf33da88fc2',
  'd5a79147930aa725',
  '06ca6351e003826f',
  '142929670a0e6e70',
  '27b70a8546d22ffc',
  '2e1b21385c26c926',
  '4d2c6dfc5ac42aed',
  '53380d139d95b3df',
  '650a73548baf63de',
  '766a0abb3c77b2a8',
  '81c2c92e47edaee6',
  '92722c851482353b',
  'a2bfe8a14cf10364',
  'a81a664bbc423001',
  'c24b8b70d0f89791',
  'c76c51a30654be30',
  'd192e819d6ef5218',
  'd69906245565a910',
  'f40e35855771202a',
  '106aa07032bbd1b8',
  '19a4c116b8d2d0c8',
  '1e376c085141ab53',
  '2748774cdf8eeb99',
  '34b0bcb5e19b48a8',
  '391c0cb3c5c95a63',
  '4ed8aa4ae3418acb',
  '5b9cca4f7763e373',
  '682e6ff3d6b2b8a3',
  '748f82ee5defb2fc',
  '78a5636f43172f60',
  '84c87814a1f0ab72',
  '8cc702081a6439ec',
  '90befffa23631e28',
  'a4506cebde82bde9',
  'bef9a3f7b2c67915',
  'c67178f2e372532b',
  'ca273eceea26619c',
  'd186b8c721c0c207',
  'eada7dd6cde0eb1e',
  'f57d4f7fee6ed178',
  '06f067aa72176fba',
  '0a637dc5a2c898a6',
  '113f9804bef90dae',
  '1b710b35131c471b',
  '28db77f523047d84',
  '32caab7b40c72493',
  '3c9ebe0a15c9bebc',
  '431d67c49c100d4c',
  '4cc5d4becb3e42b6',
  '597f299cfc657e2a',
  '5fcb6fab3ad6faec',
  '6c44198c4a475817',
];
const K512 = new Uint32Array(SHA512_K.flatMap((k) => [parseInt(k.slice(0, 8), 16), parseInt(k.slice(8), 16)]));

export function sha512(text: string): string {
  const view = pad(encoder.encode(text), 128, false);
  const h = new Uint32Array([
    0x6a09e667, 0xf3bcc908, 0xbb67ae85, 0x84caa73b, 0x3c6ef372, 0xfe94f82b, 0xa54ff53a, 0x5f1d36f1, 0x510e527f, 0xade682d1,
    0x9b05688c, 0x2b3e6c1f, 0x1f83d9ab, 0xfb41bd6b, 0x5be0cd19, 0x137e2179,
  ]);
  const w = new Uint32Array(160);
  // 64-bit helpers on (hi, lo) pairs; results returned through these two slots.
  let rh = 0;
  let rl = 0;
  const rotr = (hi: number, lo: number, n: number) => {
    if (n < 32) {
      rh = (hi >>> n) | (lo << (32 - n));
      rl = (lo >>> n) | (hi << (32 - n));
    } else {
      rh = (lo >>> (n - 32)) | (hi << (64 - n));
      rl = (hi >>> (n - 32)) | (lo << (64 - n));
    }
  };
  const shr = (hi: number, lo: number, n: number) => {
    rh = hi >>> n;
    rl = (lo >>> n) | (hi << (32 - n));
  };
  const sigma = (hi: number, lo: number, a: number, b: number, c: number, shift: boolean) => {
    rotr(hi, lo, a);
    let xh = rh;
    let xl = rl;
    rotr(hi, lo, b);
    xh ^= rh;
    xl ^= rl;
    if (shift) shr(hi, lo, c);
    else rotr(hi, lo, c);
    rh = xh ^ rh;
    rl = xl ^ rl;
  };
  const add = (...pairs: number[]) => {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < pairs.length; i += 2) {
      lo += pairs[i + 1] >>> 0;
      hi += pairs[i] >>> 0;
    }
    hi += Math.floor(lo / 2 ** 32);
    rh = hi >>> 0;
    rl = lo >>> 0;
  };
  for (let off = 0; off < view.byteLength; off += 128) {
    for (let i = 0; i < 32; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 80; i++) {
      sigma(w[(i - 15) * 2], w[(i - 15) * 2 + 1], 1, 8, 7, true);
      const s0h = rh;
      const s0l = rl;
      sigma(w[(i - 2) * 2], w[(i - 2) * 2 + 1], 19, 61, 6, true);
      add(w[(i - 16) * 2], w[(i - 16) * 2 + 1], s0h, s0l, w[(i - 7) * 2], w[(i - 7) * 2 + 1], rh, rl);
      w[i * 2] = rh;
      w[i * 2 + 1] = rl;
    }
    const v = Array.from(h);
    for (let i = 0; i < 80; i++) {
      const [ah, al, bh, bl, ch, cl, dh, dl, eh, el, fh, fl, gh, gl, hh, hl] = v;
      sigma(eh, el, 14, 18, 41, false);
      const S1h = rh;
      const S1l = rl;
      const chh = (eh & fh) ^ (~eh & gh);
      const chl = (el & fl) ^ (~el & gl);
      add(hh, hl, S1h, S1l, chh, chl, K512[i * 2], K512[i * 2 + 1], w[i * 2], w[i * 2 + 1]);
      const t1h = rh;
      const t1l = rl;
      sigma(ah, al, 28, 34, 39, false);
      const majh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
      const majl = (al & bl) ^ (al & cl) ^ (bl & cl);
      add(rh, rl, majh, majl);
      const t2h = rh;
      const t2l = rl;
      add(dh, dl, t1h, t1l);
      const neh = rh;
      const nel = rl;
      add(t1h, t1l, t2h, t2l);
      v.splice(0, 16, rh, rl, ah, al, bh, bl, ch, cl, neh, nel, eh, el, fh, fl, gh, gl);
    }
    for (let i = 0; i < 16; i += 2) {
      add(h[i], h[i + 1], v[i], v[i + 1]);
      h[i] = rh;
      h[i + 1] = rl;
    }
  }
  return toHex32(h, false);
}

export const DIGESTS: Record<'md5' | 'sha1' | 'sha256' | 'sha512', (text: string) => string> = { md5, sha1, sha256, sha512 };
