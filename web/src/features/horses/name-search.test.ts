import { describe, expect, it, vi } from 'vitest';
import { createNameIndex, normaliseNeedle } from './name-search.ts';

/**
 * The search as the version 4 IndexedDB index answered it, kept as the oracle: every
 * suffix of the lower-cased name that starts with a non-space character, cut to 12
 * characters, matched by prefix, longer needles checked against the whole name.
 */
function oldSearch(names: string[], search: string): string[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return names;
  return names.filter((name) => {
    const lower = name.toLowerCase();
    const keys: string[] = [];
    for (let i = 0; i < lower.length; i++) if (!/\s/.test(lower[i]!)) keys.push(lower.slice(i, i + 12));
    return keys.some((key) => key.startsWith(needle.slice(0, 12))) && (needle.length <= 12 || lower.includes(needle));
  });
}

const NAMES = [
  'Silver Star',
  'Night Owl',
  'Stardust',
  'Comet',
  'STORM chaser',
  'Dusty  Rose',
  'Ärger Pferd',
  'Thunderbolt the Unstoppable',
  'Maple',
];
const rowsOf = (names: string[]) => names.map((name, i) => ({ id: `h${i}`, name }));
const namesOf = (rows: { name: string }[]) => rows.map((row) => row.name);

describe('horse name search in memory', () => {
  it('[H2] finds the needle anywhere in the name, in any case, keeping the list order', () => {
    const index = createNameIndex(rowsOf(NAMES));
    expect(namesOf(index.search('st'))).toEqual(['Silver Star', 'Stardust', 'STORM chaser', 'Dusty  Rose', 'Thunderbolt the Unstoppable']);
    expect(namesOf(index.search(normaliseNeedle('  OWL ')))).toEqual(['Night Owl']);
    expect(namesOf(index.search('r s'))).toEqual(['Silver Star']);
    expect(namesOf(index.search('zebra'))).toEqual([]);
    expect(index.search('')).toHaveLength(NAMES.length);
  });

  it('[H2] answers as the IndexedDB name index did, for short and long needles', () => {
    const needles = [
      's',
      'St',
      'sta',
      'star',
      'r s',
      'y  r',
      'ärg',
      'ÄRGER',
      'the unstoppable',
      'thunderbolt the',
      'bolt the unstop',
      'o',
      'e',
      ' m ',
      'maple',
      'maples',
      'x',
    ];
    for (const search of needles) {
      expect(namesOf(createNameIndex(rowsOf(NAMES)).search(normaliseNeedle(search))), search).toEqual(oldSearch(NAMES, search));
    }
  });

  it('typing on narrows the previous result and deleting widens it again', () => {
    const index = createNameIndex(rowsOf(NAMES));
    const typed = ['s', 'st', 'sta', 'star', 'sta', 'st', 'ust', 'dust', 'o'];
    for (const needle of typed) expect(namesOf(index.search(needle)), needle).toEqual(oldSearch(NAMES, needle));
  });

  it('treats a missing name as empty', () => {
    const index = createNameIndex([
      { id: 'a', name: null },
      { id: 'b', name: 'Comet' },
    ]);
    expect(index.search('com').map((row) => row.id)).toEqual(['b']);
  });

  it('lower-cases the names ahead of the first keystroke when warmed, with the same answers', () => {
    const rows = rowsOf(NAMES);
    const cold = createNameIndex(rows);
    const warmed = createNameIndex(rows);
    warmed.warm();
    const lowerCase = vi.spyOn(String.prototype, 'toLowerCase');
    let answer: { name: string }[];
    try {
      answer = warmed.search('st');
      expect(lowerCase).not.toHaveBeenCalled();
    } finally {
      lowerCase.mockRestore();
    }
    expect(namesOf(answer)).toEqual(namesOf(cold.search('st')));
  });
});
