import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEntity, newId, parseMoney, readRecord, collectionMap, writeEntity } from '../../shared/index.ts';
import { databaseKinds } from './support/databases.ts';
import { startStaffRanch, type StaffRanch } from './support/staff-ranch.ts';
import { connectAckedDevice, whenSynced } from './support/sync-client.ts';
import { untilSaved } from './support/until-saved.ts';

/**
 * [S14] One reading of money everywhere: for random texts, what the shared parser accepts is
 * what REST stores and returns and what a synced device's record holds; what it refuses gets
 * REST's 400 with the parser's message and is removed from the document when a device sends
 * it over the socket. A failure prints fast-check's seed; `FC_SEED=<seed>` replays it.
 */
const NUM_RUNS = Number(process.env.FC_RUNS ?? 12);
const replay = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

/** Texts people and programs write for money, and texts close to them that are not money. */
const moneyText = fc
  .oneof(
    fc.string({ maxLength: 24 }),
    fc.stringMatching(/^[$ ]?[-−(]?[\d,.]{1,18}[e)]?\d{0,3}$/),
    fc.constantFrom('1e30', '-50', '12.345', '99999999999999999', '1,234.56', '$1,234.56', '.5', '1234'),
    fc
      .integer({ min: 0, max: 99_999_999_999_999 })
      .map((cents) => `${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`),
  )
  .filter((text) => text.trim() !== '');

type ApiHorse = { id: string; priceUsd: string | null };

describe.each(databaseKinds())('[S14] money typed anywhere is read one way (%s)', (kind) => {
  let ranch: StaffRanch;
  let device: ReturnType<typeof connectAckedDevice>;
  let horses = 0;

  beforeAll(async () => {
    ranch = await startStaffRanch(kind);
    device = connectAckedDevice(ranch.server.url, ranch.staff.cookie);
    await whenSynced(device);
  });
  afterAll(async () => {
    device?.destroy();
    await ranch?.server.destroy();
  });

  const horse = (priceUsd: string) => ({
    name: `Priced ${++horses}`,
    breedId: ranch.lookups.breed,
    colorId: ranch.lookups.color,
    genderId: ranch.lookups.gender,
    priceUsd,
  });

  it('REST and the socket accept exactly what the parser accepts, and keep it exactly', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(moneyText, { minLength: 1, maxLength: 6 }), async (texts) => {
        const overSocket = new Map<string, string>();
        const overRest = new Map<string, string>();
        device.notices.length = 0;
        device.doc.transact(() => {
          for (const text of texts) {
            const id = newId();
            overSocket.set(id, text);
            writeEntity(device.doc, 'horses', id, horse(text));
          }
        });
        for (const text of texts) {
          const reading = parseMoney(text);
          const response = await ranch.staff.request('/api/horses', { method: 'POST', json: horse(text) });
          const body = await response.json();
          if (reading.ok) {
            expect(response.status, text).toBe(201);
            expect(body.priceUsd, text).toBe(reading.value);
            overRest.set(body.id, reading.value);
            accepted += 1;
          } else {
            expect([response.status, body.message], text).toEqual([400, `priceUsd: ${reading.message}`]);
            refused += 1;
          }
        }
        await untilSaved(device);
        const listed = new Map(
          ((await (await ranch.staff.request('/api/horses')).json()) as ApiHorse[]).map((row) => [row.id, row.priceUsd]),
        );
        for (const [id, value] of overRest) expect(listed.get(id)).toBe(value);
        for (const [id, text] of overSocket) {
          const reading = parseMoney(text);
          if (reading.ok) {
            // Stored as sent; read by the device and REST as the same amount.
            const record = readRecord('horses', id, collectionMap(device.doc, 'horses').get(id));
            expect(record.valid && record.record.priceUsd, text).toBe(reading.value);
            expect(listed.get(id), text).toBe(reading.value);
          } else {
            expect(getEntity(device.doc, 'horses', id), text).toBeUndefined();
            expect(listed.has(id), text).toBe(false);
            expect(device.notices, text).toContainEqual(
              expect.objectContaining({ collection: 'horses', id, action: 'removed', reason: expect.stringContaining(reading.message) }),
            );
          }
        }
      }),
      { numRuns: NUM_RUNS, ...replay },
    );
    // Both sides of the parser were compared.
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 240_000);
});
