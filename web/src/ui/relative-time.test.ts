import { describe, expect, it } from 'vitest';
import { timeAgo } from './relative-time.ts';

describe('timeAgo', () => {
  const now = Date.UTC(2026, 10, 21, 12, 0, 0);
  it('is coarse: just now, minutes, hours, days', () => {
    expect(timeAgo(now - 10_000, now)).toBe('just now');
    expect(timeAgo(now - 2 * 60_000, now)).toBe('2 min ago');
    expect(timeAgo(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(timeAgo(now - 26 * 3_600_000, now)).toBe('1 day ago');
    expect(timeAgo(now - 4 * 86_400_000, now)).toBe('4 days ago');
    expect(timeAgo(now + 5_000, now)).toBe('just now');
    expect(timeAgo(now + 3 * 86_400_000, now)).toBe('just now');
  });

  it('says nothing for a time that is not one (a malformed date), rather than "NaN days ago"', () => {
    expect(timeAgo(Date.parse('not a date'), now)).toBe('');
    expect(timeAgo(Number.POSITIVE_INFINITY, now)).toBe('');
  });
});
