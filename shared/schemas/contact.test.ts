import { describe, expect, it } from 'vitest';
import { contactInput } from './contact.ts';

const phoneOf = (phone: unknown) => contactInput.safeParse({ firstName: 'Jo', lastName: 'Lee', phone });

describe('contact phone numbers (form, REST and synced contacts alike)', () => {
  it.each([
    '(555) 201-3344',
    '555-201-3344',
    '555.201.3344',
    '5552013344',
    '+1 555 201 3344',
    '+1 (555) 201-3344',
    '1-555-201-3344',
    '+44 20 7946 0958',
    '+61 2 9374 4000',
    '555-201-3344 x12',
    '555-201-3344 ext. 12',
    '(555) 201-3344 ext 7',
  ])('[C9] accepts %s and stores it as typed', (typed) => {
    const result = phoneOf(`  ${typed} `);
    expect(result.success).toBe(true);
    expect(result.data?.phone).toBe(typed);
  });

  it.each([
    'call me',
    '555-CALL-NOW',
    '555 201 3344 +1',
    '++1 555',
    '555_201_3344',
    `5${'5'.repeat(40)}`,
    12,
    '(555) 201-3344 ext. twelve',
  ])('[C9] refuses %s with "Invalid phone number"', (typed) => {
    const result = phoneOf(typed);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Invalid phone number']);
  });

  it('[C7] stores no phone as null', () => {
    expect(phoneOf('   ').data?.phone).toBeNull();
  });
});
