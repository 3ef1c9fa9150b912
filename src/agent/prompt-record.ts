/**
 * How a session records the prompts it sends: a new session's database opens
 * only once its first request is on its way, with its first writes (the
 * session's row, the prompt) waiting for that open (Store.afterOpen).
 */
import type { UserMessage, UserPart } from '../providers/index.ts';
import type { Store } from '../store/index.ts';

/**
 * The prompt's message (and, for a session's first, its title: the first line of its text) written now when the
 * database is open, else as it opens: after the first request went out, or before any other use of the store.
 */
export function recordPrompt(store: Store, sessionId: string, message: UserMessage, turn: number, first: { content: readonly UserPart[] } | undefined): void {
  const title = first?.content.find((p) => p.type === 'text')?.text.split('\n')[0]?.slice(0, 80);
  store.afterOpen((s) => {
    if (title) s.sessions.setTitle(sessionId, title);
    s.sessions.setStatus(sessionId, 'active');
    s.messages.append(sessionId, message, turn);
  });
}

/**
 * Opens the store once the request just started is on its way (its fetch is called within this task's microtasks):
 * before it, opening and writing cost -p's first request ~12 ms (scripts/bench/startup.ts, interleaved, n=15: first
 * byte 96.6 -> 85.6 ms median, main-thread CPU 85.0 -> 74.0 ms). An open that fails is thrown again by the next use
 * of the store, inside the run, which ends saying so.
 */
export function openAfterSend(store: Store): void {
  setImmediate(() => {
    try {
      store.open();
    } catch {
      // thrown again at the next use
    }
  });
}
