/**
 * How a session records what it sends: behind its requests (Store.later), so
 * between a model's answer and the next request moat does only what that
 * request needs. A new session's database opens after its first request.
 */
import type { UserMessage, UserPart } from '../providers/index.ts';
import type { Store } from '../store/index.ts';

/** The prompt's message (and, for a session's first, its title: the first line of its text), written behind the request. */
export function recordPrompt(store: Store, sessionId: string, message: UserMessage, turn: number, first: { content: readonly UserPart[] } | undefined): void {
  const title = first?.content.find((p) => p.type === 'text')?.text.split('\n')[0]?.slice(0, 80);
  store.later((s) => {
    if (title) s.sessions.setTitle(sessionId, title);
    s.sessions.setStatus(sessionId, 'active');
    s.messages.append(sessionId, message, turn);
  });
}
