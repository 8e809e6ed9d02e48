import type { PhotoOutbox } from './photos/photo-outbox.ts';
import type { BuyerRepository } from './repositories/buyers.ts';
import type { CareRepository } from './repositories/care.ts';
import type { CorrectionRepository } from './repositories/corrections.ts';
import type { HorseRepository } from './repositories/horses.ts';
import type { LookupRepository } from './repositories/lookups.ts';
import type { OwnerRepository } from './repositories/owners.ts';
import type { PaymentRepository } from './repositories/payments.ts';
import type { SaleRepository } from './repositories/sales.ts';

/** Each method of `T`, answering with a promise; a throw becomes a rejection. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/**
 * Every change a screen can make to ranch data, as one async interface (docs/architecture.md
 * "The device's write path"): form → shared schema → `data.writes.<repository>.<method>` →
 * an intent in the device's outbox → one transaction where the document lives. Screens await
 * the answer and show a refusal from its rejection, so it does not matter to them whether the
 * document is in this thread or in the data worker.
 */
export type RanchWrites = {
  horses: Async<Pick<HorseRepository, 'create' | 'update' | 'setField' | 'remove'>>;
  lookups: Async<LookupRepository>;
  owners: Async<OwnerRepository>;
  buyers: Async<BuyerRepository>;
  sales: Async<SaleRepository>;
  /** Append-only ([P5]): create is the only write. */
  payments: Async<PaymentRepository>;
  /** [K2] one visit for several horses; an entry is corrected ([K8]) or, recorded by mistake, deleted. */
  careEntries: Async<CareRepository>;
  /** [P10]–[P12] [S17] voids, cancellations and refunds: create-only. */
  corrections: Async<CorrectionRepository>;
  /** The horse referring to an outbox photo was saved: the photo may go to the server. */
  photos: Async<Pick<PhotoOutbox, 'queue'>>;
};

/** The repositories the writes go to, where the document is. */
export type WriteTargets = {
  horses: HorseRepository;
  lookups: LookupRepository;
  owners: OwnerRepository;
  buyers: BuyerRepository;
  sales: SaleRepository;
  payments: PaymentRepository;
  careEntries: CareRepository;
  corrections: CorrectionRepository;
  photos: PhotoOutbox;
};

/** The method names of each repository that RanchWrites offers (also the RPC's surface). */
export const WRITE_METHODS = {
  horses: ['create', 'update', 'setField', 'remove'],
  lookups: ['create', 'rename', 'setActive', 'setField'],
  owners: ['create', 'update', 'setField', 'remove'],
  buyers: ['create', 'update', 'setField', 'remove'],
  sales: ['create'],
  payments: ['create'],
  careEntries: ['create', 'update', 'remove'],
  corrections: ['voidPayment', 'cancelSale', 'refund'],
  photos: ['queue'],
} as const satisfies { [R in keyof RanchWrites]: readonly (keyof RanchWrites[R])[] };

/** RanchWrites for `call(repository, method, args)`: the outbox (outbox/outbox.ts) or a layer around it. */
export function writesThrough(call: (repository: keyof RanchWrites, method: string, args: unknown[]) => Promise<unknown>): RanchWrites {
  const writes: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [repository, methods] of Object.entries(WRITE_METHODS)) {
    writes[repository] = Object.fromEntries(
      methods.map((method) => [method, (...args: unknown[]) => call(repository as keyof RanchWrites, method, args)]),
    );
  }
  return writes as unknown as RanchWrites;
}

/** Calls one RanchWrites method by name (a name of WRITE_METHODS: writesThrough hands over no other). */
export function callWrite(writes: RanchWrites, repository: keyof RanchWrites, method: string, args: unknown[]): Promise<unknown> {
  const target = writes[repository] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return target[method]!(...args);
}

/** `writes` with every call's promise passed through `around` (which returns it, or one that settles as it does). */
export function writesAround(writes: RanchWrites, around: (call: Promise<unknown>) => Promise<unknown>): RanchWrites {
  return writesThrough((repository, method, args) => around(callWrite(writes, repository, method, args)));
}

/**
 * Makes one RanchWrites call on the repositories; refuses names outside WRITE_METHODS. The
 * repositories' writes are synchronous, so the document has changed (or the write was
 * refused, by a throw) when this returns. A method that answers with a promise (the photo
 * outbox's) is returned as it is.
 */
export function runWrite(targets: WriteTargets, repository: string, method: string, args: unknown[]): unknown {
  const methods: readonly string[] | undefined = Object.hasOwn(WRITE_METHODS, repository)
    ? WRITE_METHODS[repository as keyof RanchWrites]
    : undefined;
  if (!methods?.includes(method)) throw new Error(`No such write: ${repository}.${method}`);
  const target = targets[repository as keyof WriteTargets] as unknown as Record<string, (...args: unknown[]) => unknown>;
  return target[method]!(...args);
}
