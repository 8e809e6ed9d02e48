import type { ErrorBody } from '../../../shared/api-error.ts';

type Fetch = (request: Request, env: never) => Response | Promise<Response>;

/**
 * Counts the requests in flight (REST calls, socket upgrades) so that a graceful stop lets
 * them finish (docs/architecture.md "Stopping"); once stopping, new requests on connections
 * still open are answered 503 with `Retry-After` and `Connection: close`.
 */
export class RequestGate {
  private inFlight = 0;
  private stopping = false;
  private readonly idle: (() => void)[] = [];

  wrap<F extends Fetch>(fetch: F): F {
    return (async (request: Request, env: never) => {
      if (this.stopping) return restarting();
      this.inFlight++;
      try {
        return await fetch(request, env);
      } finally {
        if (--this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
      }
    }) as F;
  }

  /** Refuses new requests; resolves once those in flight have their answers. */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }
}

function restarting(): Response {
  const body: ErrorBody = { message: 'The server is restarting; try again in a moment.' };
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': '5', connection: 'close' },
  });
}
