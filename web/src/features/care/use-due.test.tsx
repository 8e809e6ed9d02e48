// @vitest-environment jsdom
import Dexie, { RangeSet } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { DataProvider } from '../../data/context.tsx';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { DUE_RECHECK_MS, useDue } from './use-due.ts';

let data: RanchData;
beforeEach(async () => {
  data = openTestData();
  await data.projection.ready;
});
afterEach(async () => {
  cleanup();
  await data.persistence.clearData();
  await data.destroy();
});

function Count() {
  const due = useDue(50);
  return <p>{due === undefined ? 'reading' : `${due.total} due`}</p>;
}

describe('what is due, read again', () => {
  it('[K4] a burst of changes to the care entries costs one more read, not one per change', async () => {
    // A whole read of the care rows starts with its first page, by primary key (read-by-key.ts).
    const reads = vi.spyOn(data.db.horseCare, 'orderBy');
    render(
      <DataProvider data={data}>
        <Count />
      </DataProvider>,
    );
    await screen.findByText('0 due');
    expect(reads).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) {
      Dexie.on.storagemutated.fire({ [`idb://${data.db.name}/horseCare/`]: new RangeSet(-Infinity, [[[]]]) });
    }
    // A change elsewhere (the photo outbox) reads nothing.
    Dexie.on.storagemutated.fire({ [`idb://${data.db.name}/photoOutbox/`]: new RangeSet(-Infinity, [[[]]]) });
    await expect.poll(() => reads.mock.calls.length, { timeout: DUE_RECHECK_MS * 6 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, DUE_RECHECK_MS * 2));
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
