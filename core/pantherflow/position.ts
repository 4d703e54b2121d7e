// Source positions. The syntax tree keeps 0-based offsets; services also report 0-based line and character
// (LSP's shape), which an editor adapter converts to its own convention.

export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface Position {
  readonly offset: number;
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { offset: clamped, line: lo, character: clamped - this.lineStarts[lo] };
  }

  offset(line: number, character: number): number {
    if (line < 0) return 0;
    if (line >= this.lineStarts.length) return this.text.length;
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] - 1 : this.text.length;
    return Math.min(this.lineStarts[line] + Math.max(0, character), next);
  }

  range(span: Span): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }
}
