import type { PhotoOutbox } from './photos/photo-outbox.ts';
import type { BuyerRepository } from './repositories/buyers.ts';
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
 * Every change a screen can make to ranch data, as one async interface (docs/web.md "The data
 * layer in a worker"): form → shared schema → `data.writes.<repository>.<method>` → one
 * transaction where the document lives. Screens await the answer and show a refusal from its
 * rejection, so it does not matter to them whether the document is in this thread or in the
 * data worker.
 */
export type RanchWrites = {
  horses: Async<Pick<HorseRepository, 'create' | 'update' | 'remove'>>;
  lookups: Async<LookupRepository>;
  owners: Async<OwnerRepository>;
  buyers: Async<BuyerRepository>;
  sales: Async<SaleRepository>;
  /** Append-only ([P5]): create is the only write. */
  payments: Async<PaymentRepository>;
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
  photos: PhotoOutbox;
};

/** The method names of each repository that RanchWrites offers (also the RPC's surface). */
export const WRITE_METHODS = {
  horses: ['create', 'update', 'remove'],
  lookups: ['create', 'rename', 'setActive'],
  owners: ['create', 'update', 'remove'],
  buyers: ['create', 'update', 'remove'],
  sales: ['create'],
  payments: ['create'],
  photos: ['queue'],
} as const satisfies { [R in keyof RanchWrites]: readonly (keyof RanchWrites[R])[] };

/**
 * RanchWrites for `call(repository, method, args)`: the in-thread repositories
 * (`localWrites`) or a call into the data worker.
 */
export function writesThrough(call: (repository: keyof RanchWrites, method: string, args: unknown[]) => Promise<unknown>): RanchWrites {
  const writes: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [repository, methods] of Object.entries(WRITE_METHODS)) {
    writes[repository] = Object.fromEntries(
      methods.map((method) => [method, (...args: unknown[]) => call(repository as keyof RanchWrites, method, args)]),
    );
  }
  return writes as unknown as RanchWrites;
}

/** Applies one RanchWrites call to the repositories; refuses names outside WRITE_METHODS. */
export async function applyWrite(targets: WriteTargets, repository: string, method: string, args: unknown[]): Promise<unknown> {
  const methods: readonly string[] | undefined = Object.hasOwn(WRITE_METHODS, repository)
    ? WRITE_METHODS[repository as keyof RanchWrites]
    : undefined;
  if (!methods?.includes(method)) throw new Error(`No such write: ${repository}.${method}`);
  const target = targets[repository as keyof WriteTargets] as unknown as Record<string, (...args: unknown[]) => unknown>;
  return target[method]!(...args);
}

/** RanchWrites on the repositories of this thread (the document is here). */
export function localWrites(targets: WriteTargets): RanchWrites {
  return writesThrough((repository, method, args) => applyWrite(targets, repository, method, args));
}
