// Finds JSON values in a text stream without parsing or holding the whole document: the top-level values of
// a stream of JSON documents (`{..}{..}` or one per line, pretty-printed or not), the elements of a root
// array, or the elements of the array in one field of a root object (`{"Records": [..]}`). Each value comes
// out as its own text, parsed later by the classifier. Malformed input is not judged here: the text is passed
// on, and the JSON parser names the problem.

export type ScanTarget =
  { readonly kind: 'values' } | { readonly kind: 'array' } | { readonly kind: 'envelope'; readonly field: string };

export type ScannedValue = { readonly text: string } | { readonly error: string };

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\ufeff']);
const DELIMITERS = new Set([',', ']', '}', '[', '{', '"', ':', ' ', '\t', '\n', '\r']);

export class JsonScanner {
  /** Open containers, `{` or `[`. */
  private readonly stack: string[] = [];
  private inString = false;
  private escape = false;
  /** Inside a number or literal (true, false, null) being captured. */
  private inToken = false;
  /** Depth at which the value being captured started, or -1. */
  private captureDepth = -1;
  private captureStart = 0;
  private parts: string[] = [];
  private captured = 0;
  private overflow = 0;
  /** Root-object key tracking (for an envelope): whether a key comes next, the key being read, the last key. */
  private expectKey = false;
  private readingKey = false;
  private keyText = '';
  private lastKey = '';
  /** The key of the root-level array currently open (envelope target). */
  private openArrayKey: string | null = null;

  constructor(
    private readonly target: ScanTarget,
    private readonly maxValueLength: number,
  ) {}

  private atTarget(): boolean {
    const s = this.stack;
    switch (this.target.kind) {
      case 'values':
        return s.length === 0;
      case 'array':
        return s.length === 1 && s[0] === '[';
      case 'envelope':
        return s.length === 2 && s[0] === '{' && s[1] === '[' && this.openArrayKey === this.target.field;
    }
  }

  push(text: string): ScannedValue[] {
    const out: ScannedValue[] = [];
    this.captureStart = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === '\\') this.escape = true;
        else if (c === '"') {
          this.inString = false;
          if (this.readingKey) {
            this.readingKey = false;
            this.lastKey = decodeKey(this.keyText);
          } else if (this.captureDepth === this.stack.length) this.finish(text, i + 1, out);
          continue;
        }
        if (this.readingKey) this.keyText += c;
        continue;
      }
      if (this.inToken) {
        if (!DELIMITERS.has(c)) continue;
        this.inToken = false;
        this.finish(text, i, out);
      }
      if (WHITESPACE.has(c)) continue;
      const depth = this.stack.length;
      const start = this.captureDepth < 0 && this.atTarget();
      switch (c) {
        case '"':
          this.inString = true;
          if (start) this.begin(i);
          else if (this.expectKey && depth === 1) {
            this.readingKey = true;
            this.keyText = '';
          }
          break;
        case '{':
        case '[':
          if (start) this.begin(i);
          if (depth === 1 && this.stack[0] === '{' && c === '[') this.openArrayKey = this.lastKey;
          this.stack.push(c);
          this.expectKey = c === '{' && this.stack.length === 1;
          break;
        case '}':
        case ']':
          this.stack.pop();
          if (this.stack.length === 1 && c === ']') this.openArrayKey = null;
          if (this.captureDepth === this.stack.length) this.finish(text, i + 1, out);
          break;
        case ',':
          if (depth === 1 && this.stack[0] === '{') this.expectKey = true;
          break;
        case ':':
          if (depth === 1) this.expectKey = false;
          break;
        default:
          if (start) {
            this.begin(i);
            this.inToken = true;
          }
      }
    }
    if (this.captureDepth >= 0) this.keep(text.slice(this.captureStart));
    return out;
  }

  /** What remains when the stream ends: a value cut short is passed on as it is (its parse will fail). */
  end(): ScannedValue[] {
    const out: ScannedValue[] = [];
    if (this.captureDepth >= 0) this.finish('', 0, out);
    return out;
  }

  private begin(i: number): void {
    this.captureDepth = this.stack.length;
    this.captureStart = i;
    this.parts = [];
    this.captured = 0;
    this.overflow = 0;
  }

  private keep(part: string): void {
    if (this.overflow > 0 || this.captured + part.length > this.maxValueLength) {
      this.overflow += this.captured + part.length;
      this.parts = [];
      this.captured = 0;
      return;
    }
    this.parts.push(part);
    this.captured += part.length;
  }

  private finish(text: string, endIndex: number, out: ScannedValue[]): void {
    this.keep(text.slice(this.captureStart, endIndex));
    if (this.overflow > 0) {
      out.push({ error: `value is ${this.overflow} characters long, more than the limit of ${this.maxValueLength}` });
    } else out.push({ text: this.parts.length === 1 ? this.parts[0] : this.parts.join('') });
    this.captureDepth = -1;
    this.parts = [];
    this.captured = 0;
    this.overflow = 0;
    this.inToken = false;
  }
}

function decodeKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
