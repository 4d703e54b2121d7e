// Bytes to lines: splits a byte stream on newlines, decodes each line as strict UTF-8 and refuses overlong
// lines without buffering them, so every line becomes either text or a counted error with a reason.

export type DecodedLine = { lineNumber: number; text: string } | { lineNumber: number; error: string };

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

export class LineDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private parts: Uint8Array[] = [];
  private pendingBytes = 0;
  private overflow = 0;
  private lineNumber = 0;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** Lines completed by this chunk. */
  push(chunk: Uint8Array): DecodedLine[] {
    const out: DecodedLine[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) {
        this.append(chunk.subarray(start));
        return out;
      }
      this.append(chunk.subarray(start, nl));
      out.push(this.finishLine());
      start = nl + 1;
    }
  }

  /** The last line, when the input does not end with a newline. */
  end(): DecodedLine[] {
    if (this.pendingBytes === 0 && this.overflow === 0) return [];
    return [this.finishLine()];
  }

  private append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.overflow > 0 || this.pendingBytes + bytes.length > this.maxLineBytes) {
      this.overflow += this.pendingBytes + bytes.length;
      this.parts = [];
      this.pendingBytes = 0;
      return;
    }
    this.parts.push(bytes.slice());
    this.pendingBytes += bytes.length;
  }

  private finishLine(): DecodedLine {
    const lineNumber = ++this.lineNumber;
    if (this.overflow > 0) {
      const size = this.overflow;
      this.overflow = 0;
      return { lineNumber, error: `line is ${size} bytes long, more than the limit of ${this.maxLineBytes}` };
    }
    let bytes: Uint8Array;
    if (this.parts.length === 1) bytes = this.parts[0];
    else {
      bytes = new Uint8Array(this.pendingBytes);
      let off = 0;
      for (const p of this.parts) {
        bytes.set(p, off);
        off += p.length;
      }
    }
    this.parts = [];
    this.pendingBytes = 0;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 13) end--;
    let start = 0;
    if (lineNumber === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    try {
      return { lineNumber, text: this.decoder.decode(bytes.subarray(start, end)) };
    } catch {
      return { lineNumber, error: 'line is not valid UTF-8' };
    }
  }
}

/** All lines of a complete buffer. */
export function decodeLines(bytes: Uint8Array, maxLineBytes = DEFAULT_MAX_LINE_BYTES): DecodedLine[] {
  const decoder = new LineDecoder(maxLineBytes);
  return [...decoder.push(bytes), ...decoder.end()];
}
