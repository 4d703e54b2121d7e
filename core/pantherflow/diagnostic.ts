// Diagnostics: a problem at an exact span, with a suggestion where one is obvious.
import type { Span } from './position';

export type Severity = 'error' | 'warning';

export interface Diagnostic extends Span {
  readonly severity: Severity;
  readonly message: string;
  /** Replacement text for the span that would fix the problem (e.g. the column the user probably meant). */
  readonly suggestion?: string;
}

export function error(span: Span, message: string, suggestion?: string): Diagnostic {
  return { start: span.start, end: span.end, severity: 'error', message, ...(suggestion !== undefined ? { suggestion } : {}) };
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The candidate the user most likely meant: a case-insensitive match first, then the nearest by edit distance. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c.toLowerCase() === lower) return c;
    const d = editDistance(lower, c.toLowerCase());
    const limit = word.length < 3 ? 0 : Math.max(1, Math.floor(Math.max(word.length, c.length) / 3));
    if (d <= limit && d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  return best;
}

export function didYouMean(candidate: string | undefined): string {
  return candidate === undefined ? '' : `; did you mean \`${candidate}\`?`;
}
