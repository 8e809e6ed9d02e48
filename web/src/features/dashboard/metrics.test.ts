import { describe, expect, it } from 'vitest';
import { statusPercent } from './metrics.ts';

describe('dashboard metrics', () => {
  it('[D3] formats status percentages', () => {
    expect(statusPercent(1, 3)).toBe(33);
    expect(statusPercent(2, 3)).toBe(67);
    expect(statusPercent(0, 0)).toBe(0);
  });
});
