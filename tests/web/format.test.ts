import { describe, expect, it } from 'vitest';
import { formatCount } from '../../web/src/lib/format';

describe('formatCount', () => {
  it('shows counts in base 1000 with K, M, B and t', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1K');
    expect(formatCount(1234)).toBe('1.2K');
    expect(formatCount(999_960)).toBe('1M');
    expect(formatCount(3_500_000)).toBe('3.5M');
    expect(formatCount(7_000_000_000)).toBe('7B');
    expect(formatCount(2_100_000_000_000)).toBe('2.1t');
    expect(formatCount(-1500)).toBe('-1.5K');
  });
});
