import { describe, expect, it } from 'vitest';
import { accountsCaption, addedCaption, compactUsd, inventoryChangeCaption, pendingCaption } from './dashboard-text.ts';

describe('dashboard amounts and captions', () => {
  it.each([
    [0, '$0'],
    [49, '$0'],
    [95_000, '$950'],
    [99_949, '$999'],
    [99_950, '$1K'],
    [4_165_000, '$41.7K'],
    [4_160_000, '$41.6K'],
    [18_000_000, '$180K'],
    [9_009_300_000, '$90.1M'],
    [99_995_000, '$1M'],
    [120_000_000, '$1.2M'],
    [145_000_000, '$1.5M'],
    [144_999_999, '$1.4M'],
    [100_000_000_000, '$1B'],
    [340_000_000_000, '$3.4B'],
    [99_999_999_999_999, '$1T'],
  ])('[D5] [D7] %i cents is %s', (cents, text) => {
    expect(compactUsd(cents)).toBe(text);
  });

  it('[D2] horses added this month', () => {
    expect(addedCaption(0)).toBe('+0 this month');
    expect(addedCaption(3)).toBe('+3 this month');
  });

  it('[D2] the inventory change from the start of the month', () => {
    expect(inventoryChangeCaption(105_200, 100_000)).toBe('+5.2% from last month');
    expect(inventoryChangeCaption(97_000, 100_000)).toBe('-3.0% from last month');
    expect(inventoryChangeCaption(100_000, 100_000)).toBe('+0.0% from last month');
    expect(inventoryChangeCaption(100_050, 100_000)).toBe('+0.1% from last month');
    expect(inventoryChangeCaption(0, 100_000)).toBe('-100.0% from last month');
    expect(inventoryChangeCaption(300_000, 100_000)).toBe('+200.0% from last month');
    expect(inventoryChangeCaption(0, 0)).toBe('+0.0% from last month');
    expect(inventoryChangeCaption(4_165_000, 0)).toBe('+$41.7K from last month');
  });

  it('[D2] what open sales owe, and the accounts past due', () => {
    expect(pendingCaption(0)).toBe('$0 pending');
    expect(pendingCaption(18_000_000)).toBe('$180K pending');
    expect(accountsCaption(0)).toBe('0 accounts');
    expect(accountsCaption(1)).toBe('1 account');
    expect(accountsCaption(4)).toBe('4 accounts');
  });
});
