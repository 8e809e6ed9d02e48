import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromCents, newId, toCents, writeEntity, type StoredSale } from '../../shared/index.ts';
import { openRanchDb, type RanchDb } from '../../web/src/data/db.ts';
import { pullLedger } from '../../web/src/data/ledger/pull.ts';
import { allPayments } from '../../web/src/data/ledger/read-payments.ts';
import { startProjection, type Projection } from '../../web/src/data/projection.ts';
import { loadRanchFigures } from '../../web/src/features/dashboard/load-figures.ts';
import { loadSaleRows } from '../../web/src/features/sales/sale-rows.ts';
import { createdId, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ledgerPullOf } from './support/ledger-pull.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectDevice, whenSynced, type Device } from './support/sync-client.ts';

/**
 * Money has one truth: for random sales (prices, down payments, terms, interest, start
 * dates), payments and days, a device — the app's own projection and ledger pull into its Dexie tables and
 * its own loaders — and REST (`GET /api/sales`, `GET /api/dashboard/metrics`) give the same
 * figures: every sale's status, paid and balance, and every dashboard metric. Each run adds
 * to the same ranch, so later runs compare ever larger ranches. A failure prints
 * fast-check's seed; `FC_SEED=<seed> FC_PATH=<path>` replays it, `FC_RUNS` asks for more.
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 25);
const replay = {
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
  ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
};

const day = fc
  .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2028, 11, 31) })
  .map((ms) => new Date(ms - (ms % 86_400_000)).toISOString().slice(0, 10));

/** A sale as a form would send it, with the horse it sells and payments as shares of what is owed. */
const saleArbitrary = fc.record({
  priceCents: fc.integer({ min: 100, max: 50_000_000 }),
  downShare: fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  termsMonths: fc.constantFrom(0, 3, 6, 12),
  interestApr: fc.oneof(
    fc.constant(null),
    fc.constant(0),
    fc.integer({ min: 1, max: 3000 }).map((hundredths) => hundredths / 100),
  ),
  scheduleStartDate: fc.oneof(fc.constant(null), day),
  /** Each payment's share of the sale price; their sum may fall short of, reach or pass what is owed. */
  paymentShares: fc.array(fc.double({ min: 0.001, max: 0.6, noNaN: true }), { maxLength: 5 }),
  /** [P8] A payment a device recorded without knowing the others (offline): kept even beyond the balance, as a credit. */
  deviceShare: fc.option(fc.double({ min: 0.001, max: 1.2, noNaN: true }), { nil: null }),
  /** [P10] Void the first payment, over REST or written on the device (the socket's path). */
  voidFirst: fc.constantFrom('no', 'rest', 'device'),
  /** [S17] Cancel the sale. */
  cancel: fc.boolean(),
  /** [P11] Refund this share of what is held for the buyer, once the rest is in. */
  refundShare: fc.option(fc.double({ min: 0.01, max: 1, noNaN: true }), { nil: null }),
  statusIndex: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
});

const ranchAddition = fc.record({
  sales: fc.array(saleArbitrary, { minLength: 1, maxLength: 4 }),
  unsoldHorses: fc.array(
    fc.record({
      priceCents: fc.option(fc.integer({ min: 0, max: 100_000_000 }), { nil: null }),
      statusIndex: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    }),
    { maxLength: 3 },
  ),
  days: fc.array(day, { minLength: 1, maxLength: 3 }),
});

describe.each(databaseKinds())(
  '[S7] [S9] [S10] [D9] [D2] [D11] [P8]-[P11] [S17] money: a device and REST agree on every figure (%s)',
  (kind) => {
    let ranch: StaffRanch;
    let device: Device;
    let db: RanchDb;
    let projection: Projection;
    const statuses: string[] = [];
    let buyer = '';
    let horses = 0;
    /** Refunds asked for in this run: sale and the share of its credit. */
    const refunds: [string, number][] = [];

    beforeAll(async () => {
      ranch = await startStaffRanch(kind);
      for (const name of ['For Sale', 'Training', 'Retired']) statuses.push(await createdId(ranch.staff, '/api/statuses', { name }));
      buyer = await createdId(ranch.staff, '/api/buyers', { firstName: 'Dee', lastName: 'Ray' });
      device = connectDevice(ranch.server.url, ranch.staff.cookie);
      await whenSynced(device);
      db = openRanchDb(`money-agreement-${kind}-${process.pid}`);
      projection = startProjection(device.doc, db, Promise.resolve());
    });
    afterAll(async () => {
      projection?.stop();
      await db?.delete();
      device?.destroy();
      await ranch?.server.destroy();
    });

    async function addHorse(staff: ApiClient, priceCents: number | null, statusIndex: number | null): Promise<string> {
      return createdId(staff, '/api/horses', {
        name: `Horse ${++horses}`,
        breedId: ranch.lookups.breed,
        colorId: ranch.lookups.color,
        genderId: ranch.lookups.gender,
        statusId: statusIndex === null ? null : statuses[statusIndex],
        priceUsd: priceCents === null ? null : fromCents(priceCents),
      });
    }

    /** Pays `shares` of the price, one payment at a time, as long as REST takes them (409 once Paid); the ids taken. */
    async function pay(saleId: string, priceCents: number, shares: number[]): Promise<string[]> {
      const accepted: string[] = [];
      for (const share of shares) {
        const amount = fromCents(Math.max(1, Math.round(priceCents * share)));
        const response = await ranch.staff.request('/api/payments', {
          method: 'POST',
          json: { saleId, amount, date: '2026-02-01', method: 'Cash' },
        });
        expect([201, 409], await response.clone().text()).toContain(response.status);
        if (response.status === 409) break;
        accepted.push(((await response.json()) as { id: string }).id);
      }
      return accepted;
    }

    /** A payment written on the device, as one recorded offline reaches the server: REST's balance check never saw it. */
    function payMeanwhile(saleId: string, amount: string): void {
      device.doc.transact(() =>
        writeEntity(device.doc, 'payments', newId(), {
          saleId,
          amount,
          date: '2026-02-02',
          method: 'Check',
          memo: null,
          installmentId: null,
          createdAt: new Date().toISOString(),
        }),
      );
    }

    /** A correction written on the device ([P10]–[P12], [S17]), as one made offline reaches the server. */
    function correctMeanwhile(fields: { kind: string; saleId: string; paymentId: string | null; reason: string }): void {
      device.doc.transact(() =>
        writeEntity(device.doc, 'corrections', newId(), {
          amount: null,
          date: null,
          method: null,
          ...fields,
          createdAt: new Date().toISOString(),
        }),
      );
    }

    async function post(path: string, json: unknown, statuses: number[]): Promise<number> {
      const response = await ranch.staff.request(path, { method: 'POST', json });
      expect(statuses, `${path}: ${await response.clone().text()}`).toContain(response.status);
      return response.status;
    }

    const restList = async <T>(path: string) => (await (await ranch.staff.request(path)).json()) as T[];

    it('for random sales, payments, corrections and days', async () => {
      let payments = 0;
      let corrections = 0;
      await fc.assert(
        fc.asyncProperty(ranchAddition, async (addition) => {
          for (const sale of addition.sales) {
            const horseId = await addHorse(ranch.staff, sale.priceCents, sale.statusIndex);
            // [S15] 'Paid in Full' takes the whole price down.
            const downCents = sale.termsMonths === 0 ? sale.priceCents : Math.floor(sale.priceCents * sale.downShare);
            const saleId = await createdId(ranch.staff, '/api/sales', {
              horseId,
              buyerId: buyer,
              salePrice: fromCents(sale.priceCents),
              downPayment: fromCents(downCents),
              termsMonths: sale.termsMonths,
              interestApr: sale.interestApr,
              scheduleStartDate: sale.scheduleStartDate,
            });
            const paid = await pay(saleId, sale.priceCents, sale.paymentShares);
            payments += paid.length;
            if (sale.deviceShare !== null) {
              payMeanwhile(saleId, fromCents(Math.max(1, Math.round(sale.priceCents * sale.deviceShare))));
              payments += 1;
            }
            const first = paid[0];
            if (first && sale.voidFirst === 'rest') {
              await post(`/api/payments/${first}/void`, { reason: 'Entered by mistake' }, [201]);
              corrections += 1;
            } else if (first && sale.voidFirst === 'device') {
              correctMeanwhile({ kind: 'void', saleId, paymentId: first, reason: 'Voided offline' });
              corrections += 1;
            }
            if (sale.cancel) {
              await post(`/api/sales/${saleId}/cancel`, { reason: 'Called off' }, [201]);
              corrections += 1;
            }
            if (sale.refundShare !== null) refunds.push([saleId, sale.refundShare]);
          }
          for (const horse of addition.unsoldHorses) await addHorse(ranch.staff, horse.priceCents, horse.statusIndex);

          // The server has every payment and correction, the device's too, before REST is read.
          const arrived = async () => [(await restList('/api/payments')).length, (await restList('/api/corrections')).length];
          await expect.poll(arrived, { timeout: 15_000 }).toEqual([payments, corrections]);
          // [P11] Refunds of what is held for the buyer, now that every payment is in.
          for (const [saleId, share] of refunds.splice(0)) {
            const credit = (await restList<{ id: string; credit: string }>('/api/sales')).find((s) => s.id === saleId)?.credit ?? '0.00';
            const cents = Math.round(toCents(credit) * share);
            if (cents === 0) continue;
            await post(
              `/api/sales/${saleId}/refunds`,
              { amount: fromCents(cents), date: '2026-02-03', method: 'Check', reason: 'Credit returned' },
              [201],
            );
            corrections += 1;
          }
          const restSales = (await (await ranch.staff.request('/api/sales')).json()) as (StoredSale & {
            status: string;
            paid: string;
            balance: string;
            credit: string;
            refunded: string;
          })[];
          // The device has everything REST has once its tables hold every sale and payment.
          await expect
            .poll(
              async () => {
                await projection.idle();
                await pullLedger(db, ledgerPullOf(ranch.server.url, ranch.staff.cookie));
                const rows = await loadSaleRows(db);
                return [rows.length, (await allPayments(db)).length, await db.corrections.count()];
              },
              { timeout: 15_000 },
            )
            .toEqual([restSales.length, payments, corrections]);

          const deviceSales = new Map((await loadSaleRows(db)).map((row) => [row.id, row]));
          for (const rest of restSales) {
            const onDevice = deviceSales.get(rest.id);
            expect(
              {
                status: onDevice?.status,
                paid: fromCents(onDevice?.paidCents ?? 0),
                balance: fromCents(onDevice?.balanceCents ?? 0),
                credit: fromCents(onDevice?.creditCents ?? 0),
                refunded: fromCents(onDevice?.refundedCents ?? 0),
              },
              rest.id,
            ).toEqual({
              status: rest.status,
              paid: rest.paid,
              balance: rest.balance,
              credit: rest.credit,
              refunded: rest.refunded,
            });
          }
          for (const today of addition.days) {
            // [S16] Each sale's standing and what is past due on that day, device = REST.
            const restOnDay = (await (await ranch.staff.request(`/api/sales?today=${today}`)).json()) as {
              id: string;
              standing: string;
              pastDue: string;
            }[];
            const deviceOnDay = new Map((await loadSaleRows(db, today)).map((row) => [row.id, row]));
            for (const rest of restOnDay) {
              const onDevice = deviceOnDay.get(rest.id);
              expect({ standing: onDevice?.standing, pastDue: fromCents(onDevice?.pastDueCents ?? 0) }, `${rest.id} ${today}`).toEqual({
                standing: rest.standing,
                pastDue: rest.pastDue,
              });
            }
            const onDevice = await loadRanchFigures(db, today);
            const rest = await (await ranch.staff.request(`/api/dashboard/metrics?today=${today}`)).json();
            expect(rest, today).toEqual({
              totalHorses: onDevice.totalHorses,
              inventoryValue: fromCents(onDevice.inventoryValueCents),
              activeSales: onDevice.activeSales,
              pastDue: fromCents(onDevice.pastDueCents),
              statusDistribution: onDevice.statusDistribution,
              horsesAddedThisMonth: onDevice.horsesAddedThisMonth,
              inventoryValueLastMonth: fromCents(onDevice.inventoryValueLastMonthCents),
              pending: fromCents(onDevice.pendingCents),
              accountsPastDue: onDevice.accountsPastDue,
              ageing: Object.fromEntries(Object.entries(onDevice.ageing).map(([bucket, cents]) => [bucket, fromCents(cents)])),
            });
          }
        }),
        { numRuns: NUM_RUNS, ...replay },
      );
      // The random ranches reached both standings, so both branches were compared.
      const rows = await loadSaleRows(db);
      expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['Open', 'Paid', 'Cancelled']));
      expect(rows.some((row) => row.creditCents > 0)).toBe(true);
      expect(rows.some((row) => row.refundedCents > 0)).toBe(true);
      const kinds = new Set((await db.corrections.toArray()).map((correction) => correction.kind));
      expect(kinds).toEqual(new Set(['void', 'cancel', 'refund']));
    }, 240_000);
  },
);
