// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectionMap, writeEntity } from '../../../../shared/index.ts';
import type { RanchData } from '../ranch-data.ts';
import { paymentsOfSales } from '../ledger/read-payments.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { InUseError, NotFoundError } from './references.ts';
import { ValidationError } from './validate.ts';

let data: RanchData;
beforeEach(async () => {
  data = openTestData();
  await data.projection.ready;
});
afterEach(async () => {
  await data.persistence.clearData();
  await data.destroy();
});

function horse(ownerId: string | null = null) {
  return data.horses.create({
    name: 'Comet',
    breedId: data.lookups.create('breeds', { name: 'Arabian' }),
    colorId: data.lookups.create('colors', { name: 'Bay' }),
    genderId: data.lookups.create('genders', { name: 'Mare' }),
    ownerId,
    priceUsd: '10000',
  });
}

describe('supplier (owner) repository', () => {
  it('[C7] [C8] validates with the contact messages, stores blanks as null and stamps createdAt', async () => {
    expect(() => data.owners.create({ firstName: ' ', lastName: '', email: 'nope' })).toThrow(ValidationError);
    try {
      data.owners.create({ firstName: ' ', lastName: '', email: 'nope' });
    } catch (error) {
      expect((error as ValidationError).issues.map((issue) => issue.message)).toEqual([
        'First name is required',
        'Last name is required',
        'Invalid email',
      ]);
    }
    const id = data.owners.create({ firstName: 'Ann', lastName: 'Lee', phone: '', email: '' });
    await expect.poll(() => data.db.owners.get(id)).toMatchObject({ firstName: 'Ann', phone: null, email: null });
    const stored = await data.db.owners.get(id);
    expect(Date.parse(stored?.createdAt ?? '')).not.toBeNaN();

    data.owners.update(id, { firstName: 'Anne', lastName: 'Lee', email: 'anne@ranch.test' });
    await expect
      .poll(() => data.db.owners.get(id))
      .toMatchObject({ firstName: 'Anne', email: 'anne@ranch.test', createdAt: stored?.createdAt });
  });

  it('[C3] refuses to delete a supplier whose horses still name it', async () => {
    const id = data.owners.create({ firstName: 'Ann', lastName: 'Lee' });
    const horseId = horse(id);
    expect(() => data.owners.remove(id)).toThrow(InUseError);
    data.horses.remove(horseId);
    expect(data.owners.remove(id)).toBe(true);
    await expect.poll(() => data.db.owners.count()).toBe(0);
  });
});

describe('buyer, sale and payment repositories', () => {
  it('[C6] creates, updates and deletes buyers; a buyer with sales stays', async () => {
    const buyerId = data.buyers.create({ firstName: 'Bo', lastName: 'Hart', phone: '555 1234' });
    await expect
      .poll(() => data.db.buyers.get(buyerId))
      .toEqual({ id: buyerId, firstName: 'Bo', lastName: 'Hart', phone: '555 1234', email: null });
    data.buyers.update(buyerId, { firstName: 'Bob', lastName: 'Hart' });
    await expect.poll(() => data.db.buyers.get(buyerId)).toMatchObject({ firstName: 'Bob', phone: null });

    const horseId = horse();
    const saleId = await data.writes.sales.create({ horseId, buyerId, salePrice: '$10,000', downPayment: '', termsMonths: '3' });
    // A ledger entry (docs/sync-rules.md §7): its row shows at once, waiting for the server; the document holds no sale.
    await expect.poll(() => data.db.sales.filter((sale) => sale.buyerId === buyerId).count()).toBe(1);
    const sale = await data.db.sales.get(saleId);
    expect(sale).toMatchObject({ horseId, buyerId, salePrice: '10000.00', downPayment: '0.00', termsMonths: 3, interestApr: null });
    expect(sale).toMatchObject({ ledgerSeq: null, flags: [] });
    expect(sale && 'status' in sale).toBe(false);
    expect(collectionMap(data.doc, 'sales').size).toBe(0);
    // [H8] [C6] A horse or buyer a ledger sale names is not deleted.
    await expect(data.writes.buyers.remove(buyerId)).rejects.toThrow('This buyer cannot be deleted: 1 sale refers to it');
    await expect(data.writes.horses.remove(horseId)).rejects.toBeInstanceOf(InUseError);
    expect(await data.db.horses.get(horseId)).toBeDefined();

    const paymentId = await data.writes.payments.create({ saleId, amount: '2500', date: '2024-05-01', method: 'Cash' });
    expect(await paymentsOfSales(data.db, [saleId])).toEqual([
      expect.objectContaining({ id: paymentId, amount: '2500.00', date: '2024-05-01', method: 'Cash', memo: null, installmentId: null }),
    ]);
    await expect(data.writes.payments.create({ saleId: horseId, amount: '1', date: '2024-05-01', method: 'Cash' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await data.db.outbox.count()).toBe(2); // the sale and the payment, waiting to be pushed
    expect('update' in data.writes.payments).toBe(false);
  });

  it('a payment, void or cancellation of a sale the document holds (layout 2) goes into the document beside it', async () => {
    const horseId = horse();
    const buyerId = data.buyers.create({ firstName: 'Bo', lastName: 'Hart' });
    const saleId = '0190a000-0000-7000-8000-0000000000d1';
    writeEntity(data.doc, 'sales', saleId, {
      horseId,
      buyerId,
      salePrice: '100.00',
      downPayment: '0.00',
      termsMonths: 3,
      interestApr: null,
      scheduleStartDate: null,
      previousStatusId: null,
      createdAt: '2026-12-01T10:00:00.000Z',
    });
    const paymentId = await data.writes.payments.create({ saleId, amount: '10', date: '2026-12-02', method: 'Cash' });
    const voidId = await data.writes.corrections.voidPayment(paymentId, { reason: 'Typo' });
    const cancelId = await data.writes.corrections.cancelSale(saleId, { reason: 'Withdrew' });
    expect(collectionMap(data.doc, 'payments').has(paymentId)).toBe(true);
    expect(collectionMap(data.doc, 'corrections').has(voidId)).toBe(true);
    expect(collectionMap(data.doc, 'corrections').has(cancelId)).toBe(true);
    expect(await data.db.outbox.count()).toBe(0);
    expect(await data.db.payments.get(paymentId)).toBeUndefined();
  });

  it('[S3] a sale needs an existing horse and buyer', async () => {
    const id = '0190a000-0000-7000-8000-0000000000aa';
    await expect(
      data.writes.sales.create({ horseId: id, buyerId: id, salePrice: '1', downPayment: '1', termsMonths: 0 }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await data.db.sales.count()).toBe(0);
  });
});

describe('lookup repository edits', () => {
  it('[L6] renames and deactivates items', async () => {
    const id = data.lookups.create('colors', { name: 'Bay' });
    data.lookups.rename('colors', id, { name: ' Dark Bay ' });
    data.lookups.setActive('colors', id, false);
    await expect.poll(() => data.db.colors.get(id)).toEqual({ id, name: 'Dark Bay', isActive: false });
    expect(() => data.lookups.rename('colors', id, { name: '  ' })).toThrow(ValidationError);
  });
});
