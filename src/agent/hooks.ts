/** Hooks as the loop sees them: Claude Code's hook input and output JSON, and callbacks that answer with it. */
import { isRecord } from '../util/index.ts';

/** The JSON a hook gets (Claude Code's field names); `hook_event_name` says which event. */
export type HookInput = Record<string, unknown> & { hook_event_name: string };

/**
 * Where a command hook's raw stdout rides along with its answer. A symbol, so
 * JSON.stringify never sends it anywhere and no program can forge it.
 */
export const HOOK_STDOUT: unique symbol = Symbol('hook stdout');

/** What the OS sandbox refused a command hook (a write, a connection): told to the user whatever the answer says. */
export const HOOK_REFUSED: unique symbol = Symbol('hook refused');

/** A command hook's stdout, shown in verbose output unless its answer says `suppressOutput`. */
export interface HookStdout {
  command: string;
  text: string;
}

/** What a hook answers (Claude Code's shape: `decision`, `reason`, `hookSpecificOutput`, `continue`, …). */
export type HookJsonOutput = Record<string, unknown> & { [HOOK_STDOUT]?: HookStdout; [HOOK_REFUSED]?: HookRefusal };

/** A command hook's sandbox refusals, one message each ("write to /x refused"). */
export interface HookRefusal {
  command: string;
  refused: string[];
}

/** A hook implemented in code (an SDK program's callback); command hooks are run by the hooks runner. */
export type HookCallback = (input: HookInput, signal: AbortSignal) => Promise<HookJsonOutput>;

/**
 * Callback hooks per event name, each group behind an optional matcher (a
 * regex, `*` or empty for all) over the tool name, or for other events over
 * what Claude Code matches there (SessionStart's source, PreCompact's trigger, …).
 */
export type HookCallbackSet = Partial<Record<string, { matcher?: string; callbacks: HookCallback[] }[]>>;

/** What the hooks of one event decided, merged (any block wins; contexts and messages are all kept). */
export interface HookOutcome {
  /** `decision: "block"` (or exit code 2): the reason, for the model or the user depending on the event. */
  blockReason?: string;
  /** `hookSpecificOutput.additionalContext` (or plain stdout for UserPromptSubmit and SessionStart). */
  context: string[];
  /** `continue: false`: the run stops, with this reason (`stopReason`). */
  stop?: string;
  /** `systemMessage`: shown to the user. */
  systemMessages: string[];
  /** Command hooks' stdout for verbose output; those answering `suppressOutput: true` are left out. */
  output: HookStdout[];
  failures: string[];
  /** What the sandbox refused command hooks, however they answered. */
  refused: HookRefusal[];
}

/** What PreToolUse hooks decided about one call, beside what every event's hooks may say. */
export interface PreToolUseOutcome extends HookOutcome {
  /** deny: refused with `reason`; allow: no question asked (deny rules still hold); ask: a person decides. */
  decision?: 'allow' | 'deny' | 'ask';
  reason?: string;
  updatedInput?: unknown;
}

function matches(matcher: string | undefined, value: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch {
    return matcher === value;
  }
}

function record(v: unknown): Record<string, unknown> | undefined {
  return isRecord(v) ? v : undefined;
}

/** Runs the callbacks in parallel: their answers, and the failures as lines (a failing hook has no opinion). */
async function settle(callbacks: HookCallback[], input: HookInput, signal: AbortSignal): Promise<{ answers: HookJsonOutput[]; failures: string[] }> {
  const answers: HookJsonOutput[] = [];
  const failures: string[] = [];
  for (const s of await Promise.allSettled(callbacks.map((cb) => cb(input, signal)))) {
    if (s.status === 'fulfilled') answers.push(s.value);
    else failures.push(s.reason instanceof Error ? s.reason.message : String(s.reason));
  }
  return { answers, failures };
}

/** The fields every event's answer may carry, merged over all the answers. */
function merge(answers: HookJsonOutput[], failures: string[]): HookOutcome {
  const outcome: HookOutcome = { context: [], systemMessages: [], output: [], failures, refused: [] };
  const reasons: string[] = [];
  for (const out of answers) {
    const specific = record(out['hookSpecificOutput']);
    if (out['decision'] === 'block') reasons.push(typeof out['reason'] === 'string' && out['reason'] !== '' ? out['reason'] : 'blocked by a hook');
    const context = specific?.['additionalContext'];
    if (typeof context === 'string' && context.trim() !== '') outcome.context.push(context.trim());
    if (out['continue'] === false) outcome.stop = typeof out['stopReason'] === 'string' && out['stopReason'] !== '' ? out['stopReason'] : 'stopped by a hook';
    if (typeof out['systemMessage'] === 'string' && out['systemMessage'] !== '') outcome.systemMessages.push(out['systemMessage']);
    const stdout = out[HOOK_STDOUT];
    if (stdout !== undefined && out['suppressOutput'] !== true) outcome.output.push(stdout);
    const refused = out[HOOK_REFUSED];
    if (refused !== undefined) outcome.refused.push(refused);
  }
  if (reasons.length > 0) outcome.blockReason = reasons.join('\n');
  return outcome;
}

/** The callbacks of one event whose matcher fits `matchOn`; without `matchOn` (events Claude Code does not match on) all of them. */
function selected(set: HookCallbackSet, event: string, matchOn: string | undefined): HookCallback[] {
  return (set[event] ?? []).filter((g) => matchOn === undefined || matches(g.matcher, matchOn)).flatMap((g) => g.callbacks);
}

/**
 * Runs one event's callbacks whose matcher fits `matchOn`, in parallel, and
 * merges their answers. A failing callback is a failure line, never an opinion.
 */
export async function runHooks(set: HookCallbackSet, input: HookInput, signal: AbortSignal, matchOn?: string): Promise<HookOutcome> {
  const callbacks = selected(set, input.hook_event_name, matchOn);
  if (callbacks.length === 0) return merge([], []);
  const { answers, failures } = await settle(callbacks, input, signal);
  return merge(answers, failures);
}

/**
 * Runs the PreToolUse callbacks whose matcher fits the tool, in parallel, and
 * merges their answers: any deny wins, then ask, then allow; the last
 * updatedInput given is used; `continue: false`, context and messages as for
 * every event. A callback that fails counts as no opinion: a broken hook
 * never runs or blocks a call by itself.
 */
export async function runPreToolUse(set: HookCallbackSet, input: HookInput & { tool_name: string }, signal: AbortSignal): Promise<PreToolUseOutcome> {
  const callbacks = selected(set, 'PreToolUse', input.tool_name);
  const { answers, failures } = callbacks.length === 0 ? { answers: [], failures: [] } : await settle(callbacks, input, signal);
  // A block here is a deny (below), not a reason for the model on its own.
  const { blockReason: _asDeny, ...common } = merge(answers, failures);
  let decision: PreToolUseOutcome['decision'];
  let reason: string | undefined;
  let updatedInput: unknown;
  const rank = { allow: 1, ask: 2, deny: 3 } as const;
  for (const out of answers) {
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
    ...common,
    ...(decision === undefined ? {} : { decision }),
    ...(reason === undefined ? {} : { reason }),
    ...(updatedInput === undefined ? {} : { updatedInput }),
  };
}

/** Both sets' hooks, event by event (an SDK program's callbacks beside the settings files' commands). */
export function mergeHookSets(a: HookCallbackSet | undefined, b: HookCallbackSet | undefined): HookCallbackSet | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out: HookCallbackSet = { ...a };
  for (const [event, groups] of Object.entries(b)) out[event] = [...(out[event] ?? []), ...(groups ?? [])];
  return out;
}
