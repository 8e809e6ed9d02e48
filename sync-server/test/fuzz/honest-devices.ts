import fc from 'fast-check';
import { newId, SOLD_STATUS_NAME, writeEntity, type Collection, type EntityFields } from '../../../shared/index.ts';
import { connectAckedDevice } from '../support/sync-client.ts';

/**
 * Devices that behave like the app while the hostile client attacks: each writes only valid
 * changes to entities of its own (its own lookups, supplier, buyer, horses and sale, which
 * the hostile generator never names), so every write it has acknowledged must be on the
 * server exactly as written, whatever the hostile client did.
 */
export type HonestOp =
  | { kind: 'create-horse'; device: number; name: string }
  | { kind: 'edit-notes'; device: number; horse: number; notes: string | null }
  | { kind: 'add-payment'; device: number; cents: number };

export const HONEST_DEVICES = 2;

const device = fc.integer({ min: 0, max: HONEST_DEVICES - 1 });
const words = fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,30}[A-Za-z]$/);
export const honestOp: fc.Arbitrary<HonestOp> = fc.oneof(
  fc.record({ kind: fc.constant('create-horse' as const), device, name: words }),
  fc.record({ kind: fc.constant('edit-notes' as const), device, horse: fc.nat(5), notes: fc.oneof(words, fc.constant(null)) }),
  fc.record({ kind: fc.constant('add-payment' as const), device, cents: fc.integer({ min: 1, max: 100_000 }) }),
);

type Device = ReturnType<typeof connectAckedDevice>;

/** What one device has written in one run: every entity as it must be on the server. */
type Ledger = { lookups: Record<'breeds' | 'colors' | 'genders' | 'statuses', string>; owner: string; sale: string; horses: string[] };

export class HonestDevices {
  private readonly devices: Device[];
  private ledgers: Ledger[] = [];
  /** `collection/id` → the fields this run's honest writes gave the entity. */
  readonly expected = new Map<string, { collection: Collection; id: string; fields: EntityFields }>();
  /** Every write of this run: the device and its clock once written. */
  private writes: { device: number; clock: number }[] = [];
  /**
   * [S18] The Sold status the honest devices give the horse they sell, as the app does in the
   * sale's change: one, made before any run, so the server (which marks a sold horse with the
   * ranch's Sold status of the lowest id) finds this one and changes none of their horses.
   */
  private readonly sold = newId();

  constructor(baseUrl: string, cookie: string) {
    this.devices = Array.from({ length: HONEST_DEVICES }, () => connectAckedDevice(baseUrl, cookie));
  }

  /** Starts a run: each device creates its own small valid ranch (fresh ids). */
  startRun(): void {
    this.expected.clear();
    this.writes = [];
    this.ledgers = this.devices.map((_, index) => {
      const ledger: Ledger = {
        lookups: { breeds: newId(), colors: newId(), genders: newId(), statuses: newId() },
        owner: newId(),
        sale: newId(),
        horses: [],
      };
      const stamp = new Date().toISOString();
      this.write(index, () => {
        for (const [collection, id] of Object.entries(ledger.lookups))
          this.put(index, collection as Collection, id, { name: `Honest ${collection}`, isActive: true });
        this.put(index, 'owners', ledger.owner, { firstName: 'Hank', lastName: 'Honest', phone: null, email: null, createdAt: stamp });
        const buyer = newId();
        this.put(index, 'buyers', buyer, { firstName: 'Hope', lastName: 'Honest', phone: null, email: 'hope@ranch.test' });
        const horse = this.horse(index, ledger, 'Honest starter');
        this.put(index, 'statuses', this.sold, { name: SOLD_STATUS_NAME, isActive: true });
        this.put(index, 'horses', horse, { statusId: this.sold });
        this.put(index, 'sales', ledger.sale, {
          previousStatusId: ledger.lookups.statuses,
          horseId: horse,
          buyerId: buyer,
          salePrice: '1000000.00',
          downPayment: '0.00',
          termsMonths: 12,
          interestApr: 0,
          scheduleStartDate: '2024-01-01',
          createdAt: stamp,
        });
      });
      return ledger;
    });
  }

  apply(op: HonestOp): void {
    const ledger = this.ledgers[op.device]!;
    this.write(op.device, () => {
      switch (op.kind) {
        case 'create-horse':
          this.horse(op.device, ledger, op.name);
          return;
        case 'edit-notes':
          this.put(op.device, 'horses', ledger.horses[op.horse % ledger.horses.length]!, { notes: op.notes });
          return;
        case 'add-payment':
          this.put(op.device, 'payments', newId(), {
            saleId: ledger.sale,
            installmentId: null,
            amount: (op.cents / 100).toFixed(2),
            date: '2024-06-01',
            method: 'Card',
            memo: 'honest',
            createdAt: new Date().toISOString(),
          });
      }
    });
  }

  /** Every id this run's honest writes made. */
  ids(): string[] {
    return [...this.expected.values()].map((entry) => entry.id);
  }

  /** How many of this run's writes there are, and how many the server has acknowledged. */
  tally(): { written: number; acknowledged: number } {
    const acknowledged = this.writes.filter((w) => this.devices[w.device]!.ackedClock() >= w.clock).length;
    return { written: this.writes.length, acknowledged };
  }

  /** Devices whose writes are not all acknowledged yet (index list). */
  unacknowledged(): number[] {
    return this.devices.flatMap((d, index) => (d.ackedClock() >= d.localClock() ? [] : [index]));
  }

  destroy(): void {
    this.devices.forEach((d) => d.destroy());
  }

  private horse(index: number, ledger: Ledger, name: string): string {
    const id = newId();
    ledger.horses.push(id);
    this.put(index, 'horses', id, {
      name,
      breedId: ledger.lookups.breeds,
      colorId: ledger.lookups.colors,
      genderId: ledger.lookups.genders,
      statusId: ledger.lookups.statuses,
      ownerId: ledger.owner,
      birthdate: '2020-02-29',
      ageYears: 4,
      priceUsd: '12500.50',
      photoUrl: null,
      notes: null,
    });
    return id;
  }

  private write(index: number, change: () => void): void {
    const device = this.devices[index]!;
    device.doc.transact(change);
    this.writes.push({ device: index, clock: device.localClock() });
  }

  private put(index: number, collection: Collection, id: string, fields: EntityFields): void {
    writeEntity(this.devices[index]!.doc, collection, id, fields);
    const key = `${collection}/${id}`;
    const before = this.expected.get(key)?.fields ?? {};
    this.expected.set(key, { collection, id, fields: { ...before, ...fields } });
  }
}
