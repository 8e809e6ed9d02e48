import { describe, expect, it } from 'vitest';
import { formatMillions, formatThousands, statusPercent } from './metrics.ts';

describe('dashboard metrics', () => {
  it('[D5] [D7] [D3] formats millions, thousands and status percentages', () => {
    expect(formatMillions(175_000_050)).toBe('$1.8M');
    expect(formatMillions(0)).toBe('$0.0M');
    expect(formatMillions(145_000_000)).toBe('$1.5M');
    expect(formatMillions(2_345_678_900)).toBe('$23.5M');
    expect(formatThousands(250_000)).toBe('$3K');
    expect(formatThousands(4_449_900)).toBe('$44K');
    expect(formatThousands(0)).toBe('$0K');
    expect(statusPercent(1, 3)).toBe(33);
    expect(statusPercent(2, 3)).toBe(67);
    expect(statusPercent(0, 0)).toBe(0);
  });
});
