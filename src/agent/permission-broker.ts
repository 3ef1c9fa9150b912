/** Pending permission questions between the agent (which awaits an answer) and a front end (which gives it). */
import type { PermissionDecision } from './events.ts';
import type { AskPermission } from './permission-gate.ts';

const INTERRUPTED: PermissionDecision = { behavior: 'deny', message: 'The run was interrupted before an answer came.' };

/**
 * Connects the agent's permission requests to an interactive front end: the
 * agent awaits `ask`, the front end (which saw the `permission_request`
 * event) calls `respond` with the same request id. Pending requests are
 * denied when the front end goes away (`cancelAll`), so nothing waits forever.
 */
export class PermissionBroker {
  private readonly pending = new Map<string, (d: PermissionDecision) => void>();

  readonly ask: AskPermission = (request, signal) =>
    new Promise<PermissionDecision>((resolve) => {
      if (signal?.aborted) return resolve(INTERRUPTED);
      const onAbort = () => this.respond(request.requestId, INTERRUPTED);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.requestId, (d) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(d);
      });
    });

  respond(requestId: string, decision: PermissionDecision): boolean {
    const resolve = this.pending.get(requestId);
    if (!resolve) return false;
    this.pending.delete(requestId);
    resolve(decision);
    return true;
  }

  pendingIds(): string[] {
    return [...this.pending.keys()];
  }

  cancelAll(message = 'The request was cancelled.'): void {
    for (const id of this.pendingIds()) this.respond(id, { behavior: 'deny', message });
  }
}
