/** Hooks as the loop sees them: Claude Code's hook input and output JSON, and callbacks that answer with it. */

/** The JSON a hook gets (Claude Code's field names); `hook_event_name` says which event. */
export type HookInput = Record<string, unknown> & { hook_event_name: string };

/** What a hook answers (Claude Code's shape: `decision`, `reason`, `hookSpecificOutput`, `continue`, …). */
export type HookJsonOutput = Record<string, unknown>;

/** A hook implemented in code (an SDK program's callback); command hooks are run by the hooks runner. */
export type HookCallback = (input: HookInput, signal: AbortSignal) => Promise<HookJsonOutput>;

/** Callback hooks per event name, each group behind an optional tool-name matcher (a regex, `*` or empty for all). */
export type HookCallbackSet = Partial<Record<string, { matcher?: string; callbacks: HookCallback[] }[]>>;

/** What PreToolUse hooks decided about one call. */
export interface PreToolUseOutcome {
  /** deny: refused with `reason`; allow: no question asked (deny rules still hold); ask: a person decides. */
  decision?: 'allow' | 'deny' | 'ask';
  reason?: string;
  updatedInput?: unknown;
}

function matches(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(toolName);
  } catch {
    return matcher === toolName;
  }
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * Runs the PreToolUse callbacks whose matcher fits, in parallel, and merges
 * their answers: any deny wins, then ask, then allow; the last updatedInput
 * given is used. A callback that fails is reported in `failures` and counts
 * as no opinion: a broken hook never runs or blocks a call by itself.
 */
export async function runPreToolUse(
  set: HookCallbackSet,
  input: HookInput & { tool_name: string },
  signal: AbortSignal,
): Promise<PreToolUseOutcome & { failures: string[] }> {
  const callbacks = (set.PreToolUse ?? []).filter((g) => matches(g.matcher, input.tool_name)).flatMap((g) => g.callbacks);
  const settled = await Promise.allSettled(callbacks.map((cb) => cb(input, signal)));
  const failures: string[] = [];
  let decision: PreToolUseOutcome['decision'];
  let reason: string | undefined;
  let updatedInput: unknown;
  const rank = { allow: 1, ask: 2, deny: 3 } as const;
  for (const s of settled) {
    if (s.status === 'rejected') {
      failures.push(s.reason instanceof Error ? s.reason.message : String(s.reason));
      continue;
    }
    const out = s.value;
    const specific = record(out['hookSpecificOutput']);
    // Claude Code's current field, then the older top-level `decision` (approve / block).
    const raw = specific?.['permissionDecision'] ?? (out['decision'] === 'block' ? 'deny' : out['decision'] === 'approve' ? 'allow' : undefined);
    const d = raw === 'allow' || raw === 'deny' || raw === 'ask' ? raw : undefined;
    if (d !== undefined && (decision === undefined || rank[d] > rank[decision])) {
      decision = d;
      const why = specific?.['permissionDecisionReason'] ?? out['reason'];
      reason = typeof why === 'string' ? why : undefined;
    }
    if (specific?.['updatedInput'] !== undefined) updatedInput = specific['updatedInput'];
  }
  return {
    failures,
    ...(decision === undefined ? {} : { decision }),
    ...(reason === undefined ? {} : { reason }),
    ...(updatedInput === undefined ? {} : { updatedInput }),
  };
}

/** What the hooks of one event decided, merged (any block wins; contexts and messages are all kept). */
export interface HookOutcome {
  /** `decision: "block"` (or exit code 2): the reason, for the model or the user depending on the event. */
  blockReason?: string;
  /** `hookSpecificOutput.additionalContext` (or plain stdout for UserPromptSubmit and SessionStart). */
  context: string[];
  /** `continue: false`: the run stops, with this reason. */
  stop?: string;
  /** `systemMessage`: shown to the user. */
  systemMessages: string[];
  failures: string[];
}

/**
 * Runs one event's callbacks whose matcher fits `matchOn` (the tool name for
 * tool events; events without one run every group), in parallel, and merges
 * their answers. A failing callback is a failure line, never an opinion.
 */
export async function runHooks(set: HookCallbackSet, input: HookInput, signal: AbortSignal, matchOn?: string): Promise<HookOutcome> {
  const callbacks = (set[input.hook_event_name] ?? []).filter((g) => matchOn === undefined || matches(g.matcher, matchOn)).flatMap((g) => g.callbacks);
  const outcome: HookOutcome = { context: [], systemMessages: [], failures: [] };
  if (callbacks.length === 0) return outcome;
  const reasons: string[] = [];
  for (const s of await Promise.allSettled(callbacks.map((cb) => cb(input, signal)))) {
    if (s.status === 'rejected') {
      outcome.failures.push(s.reason instanceof Error ? s.reason.message : String(s.reason));
      continue;
    }
    const out = s.value;
    const specific = record(out['hookSpecificOutput']);
    if (out['decision'] === 'block') reasons.push(typeof out['reason'] === 'string' && out['reason'] !== '' ? out['reason'] : 'blocked by a hook');
    const context = specific?.['additionalContext'];
    if (typeof context === 'string' && context.trim() !== '') outcome.context.push(context.trim());
    if (out['continue'] === false) outcome.stop = typeof out['stopReason'] === 'string' ? out['stopReason'] : 'stopped by a hook';
    if (typeof out['systemMessage'] === 'string') outcome.systemMessages.push(out['systemMessage']);
  }
  if (reasons.length > 0) outcome.blockReason = reasons.join('\n');
  return outcome;
}

/** Both sets' hooks, event by event (an SDK program's callbacks beside the settings files' commands). */
export function mergeHookSets(a: HookCallbackSet | undefined, b: HookCallbackSet | undefined): HookCallbackSet | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out: HookCallbackSet = { ...a };
  for (const [event, groups] of Object.entries(b)) out[event] = [...(out[event] ?? []), ...(groups ?? [])];
  return out;
}
