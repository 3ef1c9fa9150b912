/**
 * Between MCP servers and the TUI's form: the assembly's `elicit` (made before
 * the UI exists, so the servers can be started with it) hands each form-mode
 * question to whoever the UI registered; with nobody registered, or for a
 * URL-mode question, the answer is `cancel`, as before the UI is up.
 */
import type { Elicit } from '../mcp/index.ts';
import type { ElicitationHandler } from '../tui/index.ts';

export interface ElicitationRelay {
  /** What the session assembly gives the MCP servers. */
  elicit: Elicit;
  /** What the TUI client's lifecycle offers the UI. */
  onElicitation(handler: ElicitationHandler): () => void;
}

export function elicitationRelay(): ElicitationRelay {
  let handler: ElicitationHandler | undefined;
  return {
    elicit: async (server, params, signal) => {
      if (handler === undefined || params.mode === 'url' || !('requestedSchema' in params)) return { action: 'cancel' };
      return handler({ server, message: params.message, requestedSchema: params.requestedSchema }, signal);
    },
    onElicitation: (next) => {
      handler = next;
      return () => {
        if (handler === next) handler = undefined;
      };
    },
  };
}
