import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { getEntity, writeEntity } from './doc-layout.ts';
import { newId } from './ids.ts';
import { markHorseSold, restoreHorseStatus } from './sold-status.ts';

describe('[S18] a cancelled sale gives the horse its status back', () => {
  const ranch = () => {
    const doc = new Y.Doc();
    const available = newId();
    const horse = newId();
    writeEntity(doc, 'statuses', available, { name: 'Available', isActive: true });
    writeEntity(doc, 'horses', horse, { name: 'Dusty', statusId: available });
    const sell = () => {
      const sale = newId();
      const previousStatusId = markHorseSold(doc, horse);
      writeEntity(doc, 'sales', sale, { horseId: horse, previousStatusId });
      return sale;
    };
    const cancel = (sale: string) => {
      restoreHorseStatus(doc, sale);
      writeEntity(doc, 'corrections', newId(), { kind: 'cancel', saleId: sale });
    };
    const status = () => getEntity(doc, 'statuses', getEntity(doc, 'horses', horse)?.statusId as string)?.name;
    return { sell, cancel, status };
  };

  it('when no other sale names the horse', () => {
    const { sell, cancel, status } = ranch();
    const sale = sell();
    expect(status()).toBe('Sold');
    cancel(sale);
    expect(status()).toBe('Available');
  });

  it('not while another sale of the horse stands: a late second cancel of an old sale', () => {
    const { sell, cancel, status } = ranch();
    const first = sell();
    cancel(first);
    expect(status()).toBe('Available');
    sell();
    cancel(first); // from a device that was offline
    expect(status()).toBe('Sold');
  });
});
