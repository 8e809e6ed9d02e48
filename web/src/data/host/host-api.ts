import type { CompensationNotices } from '../compensation-notices.ts';
import type { ConnectOutcome, DataOwner, Unsent } from '../data-owner.ts';
import type { UploadEvent } from '../photos/photo-uploader.ts';
import type { Async } from '../ranch-writes.ts';
import type { RpcClient } from '../rpc/client.ts';
import type { SyncStatus } from '../sync.ts';
import type { HostQueries } from './queries.ts';

/**
 * What the data host (data-host.ts, in the data worker) offers the page (docs/web.md "The
 * data layer in a worker"); writes come as intents in the outbox (applyIntent). No runtime imports of the document's code, so
 * the page can use this without loading Yjs.
 */
export type HostControls = {
  /** The first rows are on screen: the stored document may load now (doc-load-gate.ts). */
  startLoading(): void;
  /**
   * The user is known: start syncing and sending photos once the document has loaded,
   * unless the data on this device is another user's ([A12], data-owner.ts).
   */
  connect(owner: DataOwner): Promise<ConnectOutcome>;
  /** Records and photos the server has not acknowledged, once the document has loaded. */
  countUnsent(): Promise<Unsent>;
  /** The session ended ([A13]): close the socket and stop uploads until connect() again. */
  stopSync(): void;
  /** The page was shown again (visibilitychange, pageshow): reconnect and retry photos at once. */
  reconnect(): void;
  /** Resolves once the stored document has loaded and the projection has written what it saw. */
  idle(): Promise<void>;
  /** Records with changes the server has not acknowledged (unsaved-changes.ts). */
  countUnsaved(): Promise<number>;
  /** Closes the socket (tests and the bench simulate a lost connection); connect() or reconnect() opens it again. */
  disconnect(): void;
  /**
   * The page's online state: the worker's own may not follow it (a phone's radio, or a
   * browser test's emulated offline state), so the page's rules the socket and uploads.
   */
  setOnline(online: boolean): void;
  /** Clear Local Data: stops syncing and sending, then empties the stored document. */
  clearDocument(): Promise<void>;
  /** This host's id, new at each start: tabs served by one host get the same (tests, the bench). */
  hostId(): string;
  /**
   * Applies the outbox's intents up to and including `id` (outbox/drain.ts), once the
   * document has loaded (starting the load), and answers as intent `id`'s write: the
   * repository's answer, or its refusal. Carries no write: the outbox is the one way in, so
   * only what is stored on the device is ever applied.
   */
  applyIntent(id: string): Promise<unknown>;
  /** The horse referring to an outbox photo was saved: the photo may go to the server. */
  queuePhoto(id: string): Promise<void>;
  /** [S19] The person dismissed a refused ledger entry's notice (its outbox row `intent`). */
  dismissRefused(intent: number): Promise<void>;
};

export const CONTROL_METHODS = [
  'startLoading',
  'connect',
  'countUnsent',
  'stopSync',
  'reconnect',
  'idle',
  'countUnsaved',
  'disconnect',
  'setOnline',
  'clearDocument',
  'hostId',
  'applyIntent',
  'queuePhoto',
  'dismissRefused',
] as const satisfies readonly (keyof HostControls)[];

/**
 * Calls that only tell the host the page's state: they need no host yet, and one that starts
 * later hears them first (connect-data-host.ts, a device with nobody signed in).
 */
export const STATE_METHODS: ReadonlySet<string> = new Set(['startLoading', 'setOnline', 'reconnect'] satisfies (keyof HostControls)[]);

/** The events the host sends, by name, with their payloads; each tab gets the current ones when it connects. */
export type HostEvents = {
  status: SyncStatus;
  notices: CompensationNotices;
  /** Records waiting for the server, counted at most every 400 ms while typing (0 when all saved). */
  waiting: number;
  invalid: { invalid: number };
  loaded: boolean;
  /** The socket has had the server's answer to its first sync step (y-websocket's `synced`); for the bench and tests. */
  synced: boolean;
  /** Not in the snapshot: each upload event is shown once, by the tabs open when it happens. */
  upload: UploadEvent;
};

/** The names of the host's queries (queries.ts), for the RPC; the check below fails to compile while one is missing. */
export const QUERY_METHODS = ['groupOf', 'loadDue', 'loadFigures'] as const satisfies readonly (keyof HostQueries)[];
const everyQueryListed: Exclude<keyof HostQueries, (typeof QUERY_METHODS)[number]> extends never ? true : never = true;
void everyQueryListed;

/** The host's queries as calls over the RPC. */
export function remoteQueries(client: Pick<RpcClient, 'call'>): HostQueries {
  return Object.fromEntries(
    QUERY_METHODS.map((method) => [method, (...args: unknown[]) => client.call(method, ...args)]),
  ) as unknown as HostQueries;
}

/** The host's controls as calls over the RPC. */
export function remoteControls(client: Pick<RpcClient, 'call'>): Async<HostControls> {
  return Object.fromEntries(
    CONTROL_METHODS.map((method) => [method, (...args: unknown[]) => client.call(method, ...args)]),
  ) as unknown as Async<HostControls>;
}

/** Listens to one host event with its payload typed. */
export function onHostEvent<K extends keyof HostEvents>(
  client: Pick<RpcClient, 'on'>,
  name: K,
  listener: (payload: HostEvents[K]) => void,
): () => void {
  return client.on(name, (payload) => listener(payload as HostEvents[K]));
}
