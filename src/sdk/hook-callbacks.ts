/** An SDK program's hook callbacks: each registration becomes a callback that asks the program with `hook_callback`. */
import type { HookCallbackSet, HookInput, HookJsonOutput } from '../agent/index.ts';
import type { HookRegistrations } from './messages.ts';

export type { HookCallbackSet } from '../agent/index.ts';

/** Sends one `control_request{subtype:"hook_callback"}` and resolves with the program's answer. */
export type SendHookCallback = (callbackId: string, input: HookInput, toolUseId: string | undefined, signal: AbortSignal) => Promise<Record<string, unknown>>;

/** How long a callback may take before it counts as failed (Claude Code's default hook timeout). */
const DEFAULT_TIMEOUT_S = 60;

/**
 * `initialize.hooks` — `{PreToolUse: [{matcher: "Bash", hookCallbackIds: ["hook_0"]}]}`
 * — as callbacks the loop runs like any other hook. Each call waits for the
 * program's answer, at most the registration's timeout (seconds).
 */
export function hookCallbacks(registrations: HookRegistrations, send: SendHookCallback): HookCallbackSet {
  const set: HookCallbackSet = {};
  for (const [event, groups] of Object.entries(registrations)) {
    set[event] = groups.map((g) => ({
      ...(g.matcher === undefined ? {} : { matcher: g.matcher }),
      callbacks: g.hookCallbackIds.map((id) => async (input: HookInput, signal: AbortSignal): Promise<HookJsonOutput> => {
        const timeout = AbortSignal.timeout((g.timeout ?? DEFAULT_TIMEOUT_S) * 1000);
        const toolUseId = typeof input['tool_use_id'] === 'string' ? input['tool_use_id'] : undefined;
        return send(id, input, toolUseId, AbortSignal.any([signal, timeout]));
      }),
    }));
  }
  return set;
}
