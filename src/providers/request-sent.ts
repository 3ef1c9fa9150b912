/**
 * The moment an adapter hands a request to fetch: the SDK clients call fetch
 * through `announcingFetch`, and whoever waits for a request to be on its way
 * (after-request-sent.ts) hears of it. An SDK prepares a request over several
 * awaits after its stream is first asked for an event (loading its module,
 * building headers), and work started in those gaps used to run before the
 * request's first byte.
 */

/** What an SDK client takes as its `fetch`. */
type Fetcher = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Called at the next fetch any adapter makes, then forgotten. */
let waiting: (() => void)[] = [];

/** Calls `then` once, right after the next request of any adapter is handed to fetch. */
export function whenRequestSent(then: () => void): void {
  waiting.push(then);
}

/** `inner` (the global fetch at the time of each call by default), telling those waiting once each request has been handed to it. */
export function announcingFetch(inner?: Fetcher): Fetcher {
  return (input, init) => {
    const response = (inner ?? fetch)(input, init);
    const heard = waiting;
    waiting = [];
    for (const then of heard) then();
    return response;
  };
}
