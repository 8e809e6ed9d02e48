import type { LedgerPullOptions } from '../../../web/src/data/ledger/pull.ts';

/** How the app's data layer pulls the ledger of the server at `serverUrl` in Node: the session cookie sent by hand. */
export function ledgerPullOf(serverUrl: string, cookie: string): LedgerPullOptions {
  return {
    url: `${serverUrl}/api/ledger`,
    fetch: (input, init) => fetch(input, { ...init, headers: { cookie } }),
  };
}
