import { describe, expect, it } from 'vitest';
import { NO_STATUS } from '../../../shared/index.ts';
import { statusBadgeClass, statusTone } from './status-tone.ts';

describe('[B8] a horse status colour', () => {
  it('gives each default status of a new ranch its own tone', () => {
    const tones = ['Available', 'In Training', 'Reserved', 'Sold', 'Retired'].map(statusTone);
    expect(tones).toEqual(['success', 'info', 'warning', 'neutral', 'quiet']);
  });

  it('follows the name as a ranch types it: any case, extra spaces', () => {
    expect(statusTone('  in   TRAINING ')).toBe('info');
    expect(statusTone('For Sale')).toBe('success');
    expect(statusTone('Lame')).toBe('error');
    // The Dashboard's row for horses without a status.
    expect(statusTone(NO_STATUS)).toBe('quiet');
  });

  it('gives any other name a spare tone, the same every time', () => {
    const tone = statusTone('Broodmare');
    expect(['primary', 'secondary', 'accent']).toContain(tone);
    expect(statusTone('broodmare')).toBe(tone);
    expect(statusBadgeClass('Broodmare')).toContain(`badge-${tone}`);
    expect(statusBadgeClass('Retired')).toContain('badge-ghost');
  });
});
