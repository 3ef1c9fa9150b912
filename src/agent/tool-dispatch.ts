/** Tool dispatch: one assistant message's tool calls, checked, run (reads in parallel) and answered exactly once. */
import type { SandboxGrant } from '../contracts/index.ts';
import type { ImagePart, TextPart, ToolResultPart, ToolUsePart } from '../providers/index.ts';
import type { AnyTool, IntentContext, Rule, ToolContext, ToolDisplay, ToolRegistry, ToolResult } from '../tools/index.ts';
import { invalidInputMessage, runWithPolicy, unknownToolResult, type ToolRunPolicy } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';
import type { AgentEvent } from './events.ts';
import type { HookOutcome, PreToolUseOutcome } from './hooks.ts';
import { mayChangeFiles } from './turn-checkpoint.ts';
import { toolUseResult } from './tool-use-result.ts';
import { checkPermission, outsideRoots, type AskPermission, type PermissionPolicy, type RememberScope } from './permission-gate.ts';

export const ABORTED_RESULT = 'Aborted by the user before this tool call finished.';

/** The result of a call a PreToolUse hook's `continue: false` kept from running (it and the calls after it). */
export function hookStoppedResult(reason: string): string {
  return `Not run: a PreToolUse hook stopped the run (${reason}).`;
}

export interface ToolCallRecord {
  toolUseId: string;
  name: string;
  input: unknown;
  result: string;
  isError: boolean;
  startedAt: number;
  durationMs: number;
}

export interface DispatchDeps {
  registry: ToolRegistry;
  /** Names of the tools offered in this run (plan mode offers fewer); anything else is unknown. */
  offered: ReadonlySet<string>;
  /** Read at each call: an "allow always" answer holds from the next call on. */
  policy(): PermissionPolicy;
  intentContext: IntentContext;
  ask: AskPermission | undefined;
  /** An "allow always" answer (see GateDeps.grant). */
  grant(rule: Rule, text: string, scope: RememberScope): void;
  makeContext(toolUseId: string, approvedPaths: string[], signal: AbortSignal, sandbox?: SandboxGrant): ToolContext;
  /** `[tools.<name>] timeout` and `retry` for a tool, when configured. */
  runPolicy?(toolName: string): ToolRunPolicy | undefined;
  /**
   * PreToolUse hooks, run before the permission check; absent when none are
   * registered. The session reports what they say to the user (failures,
   * system messages, stdout) and ends the run after this message on `stop`.
   */
  preToolUse?: (call: { toolName: string; toolUseId: string; input: unknown }, signal: AbortSignal) => Promise<PreToolUseOutcome>;
  /**
   * PostToolUse hooks (`response` is the structured result, as stream-json's
   * `tool_use_result`) and PostToolUseFailure hooks (`error` is the failure's
   * text): a block reason or context they give is added to the result the model sees.
   */
  postToolUse?: (call: FinishedToolCall, signal: AbortSignal) => Promise<HookOutcome>;
  /** Notification hooks: told when moat waits for the user's approval. */
  notify?: (message: string) => void;
  emit(e: AgentEvent): void;
  record(call: ToolCallRecord): void;
  /** Awaited before a call that can change files runs: the run's checkpoint (turn-checkpoint.ts). */
  beforeChange?: () => Promise<void>;
  /** Writes the records kept so far (Store.later): called before a call that is not read-only runs. */
  saveRecords?: () => void;
}

/** A call that ran, as its after-call hooks see it: `response` when it succeeded, `error` when it failed. */
export interface FinishedToolCall {
  toolName: string;
  toolUseId: string;
  input: unknown;
  durationMs: number;
  response?: unknown;
  error?: string;
}

function contentParts(result: ToolResult): (TextPart | ImagePart)[] {
  if (typeof result.content === 'string') return [{ type: 'text', text: result.content }];
  return result.content;
}

/** Hook context joins the result the model sees: it reads it beside what the tool returned. */
function withNotes(result: ToolResult, notes: readonly string[]): ToolResult {
  return notes.length === 0 ? result : { ...result, content: [...contentParts(result), { type: 'text', text: notes.join('\n') }] };
}

function contentText(result: ToolResult): string {
  return contentParts(result)
    .map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}]`))
    .join('\n');
}

/**
 * Runs the tool calls of one assistant message. Consecutive calls of read-only
 * tools run in parallel; every other call runs alone, in order, after its
 * permission is settled. Every call gets exactly one result, in call order —
 * on abort the unfinished ones get an explicit "aborted" result, so the
 * history never holds a dangling tool_use.
 */
export async function dispatchToolCalls(
  calls: ToolUsePart[],
  deps: DispatchDeps,
  signal: AbortSignal,
): Promise<ToolResultPart[]> {
  const results: (ToolResultPart | undefined)[] = new Array(calls.length).fill(undefined);
  let running: Promise<void>[] = [];
  /** A PreToolUse hook's `continue: false`: this call and the ones after it do not run. */
  let halted: string | undefined;
  const drain = async () => {
    await Promise.all(running);
    running = [];
  };

  const finish = (i: number, call: ToolUsePart, result: ToolResult, startedAt: number, display?: ToolDisplay) => {
    const durationMs = Math.round(performance.now() - startedAt);
    const text = contentText(result);
    const isError = result.isError ?? false;
    results[i] = { type: 'tool_result', toolUseId: call.id, content: contentParts(result), isError };
    deps.emit({
      type: 'tool_finished',
      toolUseId: call.id,
      name: call.name,
      content: text,
      isError,
      display: display ?? result.display,
      durationMs,
    });
    deps.record({ toolUseId: call.id, name: call.name, input: call.input, result: text, isError, startedAt: Date.now() - durationMs, durationMs });
  };

  // The input was validated once, before the permission check: what runs is what was checked.
  const execute = async (i: number, call: ToolUsePart, tool: AnyTool, input: unknown, approvedPaths: string[], sandbox?: SandboxGrant, preNotes: readonly string[] = []) => {
    const startedAt = performance.now();
    deps.emit({ type: 'tool_started', toolUseId: call.id, name: call.name });
    let result: ToolResult;
    try {
      result = await runWithPolicy(tool, input, deps.makeContext(call.id, approvedPaths, signal, sandbox), deps.runPolicy?.(tool.name));
    } catch (e) {
      // runTool turns tool failures into results; reaching here is an infrastructure bug, still not a crash.
      result = { content: `${call.name} failed: ${errorMessage(e)}`, isError: true };
    }
    if (deps.postToolUse && !signal.aborted) {
      const text = contentText(result);
      const failed = result.isError ?? false;
      const durationMs = Math.round(performance.now() - startedAt);
      const outcome = failed ? { error: text } : { response: toolUseResult({ content: text, isError: false, display: result.display }, input) };
      const hook = await deps.postToolUse({ toolName: call.name, toolUseId: call.id, input, durationMs, ...outcome }, signal);
      const event = failed ? 'PostToolUseFailure' : 'PostToolUse';
      result = withNotes(result, [...(hook.blockReason === undefined ? [] : [`${event} hook: ${hook.blockReason}`]), ...hook.context]);
    }
    finish(i, call, withNotes(result, preNotes), startedAt);
  };

  for (let i = 0; i < calls.length; i++) {
    if (signal.aborted) break;
    const call = calls[i]!;
    const startedAt = performance.now();
    const tool = deps.offered.has(call.name) ? deps.registry.get(call.name) : undefined;
    if (!tool) {
      finish(i, call, unknownToolResult(call.name, [...deps.offered]), startedAt);
      continue;
    }
    const parsed = tool.inputSchema.safeParse(call.input);
    if (!parsed.success) {
      finish(i, call, { content: invalidInputMessage(tool.name, parsed.error.issues), isError: true }, startedAt);
      continue;
    }
    let input: unknown = parsed.data;
    let hookDecision: 'allow' | 'ask' | undefined;
    /** PreToolUse hooks' additionalContext: the model reads it with this call's result, whatever the result is. */
    let preNotes: string[] = [];
    if (deps.preToolUse) {
      const hook = await deps.preToolUse({ toolName: call.name, toolUseId: call.id, input: call.input }, signal);
      preNotes = hook.context;
      // `continue: false` wins over any decision (as in Claude Code): nothing more runs in this run.
      if (hook.stop !== undefined) {
        halted = hook.stop;
        break;
      }
      if (hook.decision === 'deny') {
        const message = `A PreToolUse hook blocked this ${call.name} call${hook.reason ? `: ${hook.reason}` : '.'}`;
        deps.emit({ type: 'permission_denied', toolUseId: call.id, toolName: call.name, input: call.input, message });
        finish(i, call, withNotes({ content: message, isError: true }, preNotes), startedAt);
        continue;
      }
      if (hook.updatedInput !== undefined) {
        const updated = tool.inputSchema.safeParse(hook.updatedInput);
        if (!updated.success) {
          finish(i, call, withNotes({ content: invalidInputMessage(tool.name, updated.error.issues), isError: true }, preNotes), startedAt);
          continue;
        }
        input = updated.data;
      }
      hookDecision = hook.decision;
    }
    let gate;
    try {
      const intent = tool.intent(input, deps.intentContext);
      gate = await checkPermission(
        {
          tool,
          input,
          intent,
          toolUseId: call.id,
          ...(hookDecision === undefined ? {} : { hookDecision }),
          ...(tool.approvalPreview === undefined ? {} : { approvalPreview: () => tool.approvalPreview!(input, deps.intentContext) }),
        },
        {
          policy: deps.policy(),
          emit: deps.emit,
          ask: deps.ask,
          grant: deps.grant,
          beforeAsk: async () => {
            await drain();
            deps.notify?.(`moat needs your permission to use ${call.name}`);
          },
          signal,
        },
      );
    } catch (e) {
      finish(i, call, withNotes({ content: `${call.name} failed: ${errorMessage(e)}`, isError: true }, preNotes), startedAt);
      continue;
    }
    if (!gate.ok) {
      deps.emit({ type: 'permission_denied', toolUseId: call.id, toolName: call.name, input: call.input, message: gate.message });
      finish(i, call, withNotes({ content: gate.message, isError: true }, preNotes), startedAt);
      continue;
    }
    let approvedPaths = gate.approvedPaths;
    if (gate.updatedInput !== undefined) {
      // The person changed the input: it is checked against the schema like the model's, and its paths are what they approved.
      const updated = tool.inputSchema.safeParse(gate.updatedInput);
      if (!updated.success) {
        finish(i, call, withNotes({ content: invalidInputMessage(tool.name, updated.error.issues), isError: true }, preNotes), startedAt);
        continue;
      }
      input = updated.data;
      approvedPaths = outsideRoots(tool.intent(input, deps.intentContext), deps.intentContext.roots);
    }
    const changesFiles = mayChangeFiles(tool, gate.sandbox);
    // The records first: a kill -9 during a call that acts never leaves its effect without the answer that asked for it.
    // A read-only call's may wait for the next request (lazy-store.ts).
    if (tool.effect !== 'read' || changesFiles) deps.saveRecords?.();
    if (deps.beforeChange && changesFiles) await deps.beforeChange();
    if (tool.effect === 'read') {
      running.push(execute(i, call, tool, input, approvedPaths, gate.sandbox, preNotes));
    } else {
      await drain();
      if (signal.aborted) break;
      await execute(i, call, tool, input, approvedPaths, gate.sandbox, preNotes);
    }
  }
  await drain();

  const unfinished = halted === undefined ? ABORTED_RESULT : hookStoppedResult(halted);
  return calls.map((call, i) => {
    const done = results[i];
    if (done) return done;
    deps.emit({ type: 'tool_finished', toolUseId: call.id, name: call.name, content: unfinished, isError: true, durationMs: 0 });
    return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: unfinished }], isError: true };
  });
}
