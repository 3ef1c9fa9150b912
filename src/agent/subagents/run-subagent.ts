/** Runs one sub-agent session to its end and reports its status and outcome. */
import { join, relative } from 'node:path';
import { ZERO_USAGE } from '../../providers/index.ts';
import { errorMessage, isWithin } from '../../util/index.ts';
import type { AgentEvent, RunStopReason } from '../events.ts';
import type { SubagentHost } from './host.ts';
import type { AgentInfo, SubagentOutcome } from './manager.ts';
import type { SubagentPlan } from './plan.ts';
import worktreePrompt from './prompts/worktree.md' with { type: 'text' };
import { createWorktree, finishWorktree, type WorktreeChanges } from './worktree.ts';
import { writeRecord, type WorktreeRecord } from './worktree-records.ts';

type RunFinished = Extract<AgentEvent, { type: 'run_finished' }>;

function statusFor(reason: RunStopReason): SubagentOutcome['status'] {
  switch (reason) {
    case 'end_turn':
      return 'done';
    case 'aborted':
      return 'stopped';
    case 'max_turns':
    case 'budget':
    case 'error':
    case 'no_structured_output':
      return 'failed';
  }
}

function errorFor(f: RunFinished, maxTurns: number | undefined): string | undefined {
  switch (f.stopReason) {
    case 'end_turn':
      return undefined;
    case 'aborted':
      return 'stopped before it finished';
    case 'max_turns':
      return `stopped at its turn limit (${maxTurns ?? f.turns} turns) before it finished`;
    case 'budget':
      return 'stopped: the budget ran out';
    case 'error':
      return f.error ?? 'failed';
    case 'no_structured_output':
      return 'ended without a structured answer';
  }
}

/** Longest string argument an activity line keeps whole; a path is kept up to PATH_CHARS (cards show it relative to the folder). */
const STRING_CHARS = 60;
const PATH_CHARS = 400;

/**
 * A tool call's input, each long string cut short (a Write's content, an
 * Edit's text), still JSON: the card reads its arguments back from it, and
 * cutting the JSON text itself lost them whenever a path was long.
 */
function shortInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const max = /path$/i.test(key) ? PATH_CHARS : STRING_CHARS;
    if (typeof value === 'string') out[key] = value.length > max ? `${value.slice(0, max - 1)}…` : value;
    else if (typeof value === 'object' && value !== null && JSON.stringify(value).length > STRING_CHARS) out[key] = Array.isArray(value) ? `[${value.length} items]` : '{…}';
    else out[key] = value;
  }
  return out;
}

/** One line for task_status: what the agent is doing now. */
export function activityOf(e: AgentEvent): string | undefined {
  switch (e.type) {
    case 'turn_started':
      return 'thinking';
    case 'text_delta':
      return 'writing';
    case 'tool_call_ready':
      return `${e.name} ${JSON.stringify(shortInput(e.input))}`;
    case 'permission_request':
      return `waiting for permission: ${e.toolName}`;
    case 'retry':
      return `retrying the model request (${e.message})`;
    default:
      return undefined;
  }
}

function stoppedBeforeStart(notes: string[]): SubagentOutcome {
  return { status: 'stopped', stopReason: 'aborted', result: '', turns: 0, usage: ZERO_USAGE, costUsd: 0, durationMs: 0, error: 'stopped before it started', notes };
}

/** Maps a path of the parent's working tree into the worktree; paths outside the repository map to the worktree top. */
function mapInto(sourceTop: string, worktree: string, p: string): string {
  return isWithin(sourceTop, p) ? join(worktree, relative(sourceTop, p)) : worktree;
}

/**
 * The life of one sub-agent: its worktree (if isolated), its own session and
 * run, its events forwarded to the parent, and at the end its work committed
 * on its branch. Never throws after the worktree exists: the worktree is
 * always committed or removed, even when the run fails or is stopped.
 */
export async function runSubagent(
  host: SubagentHost,
  plan: SubagentPlan,
  ids: { agentId: string; parentToolUseId: string },
  signal: AbortSignal,
  report: (patch: Partial<AgentInfo>) => void,
): Promise<SubagentOutcome> {
  const started = performance.now();
  const notes = [...plan.notes];
  const settings = { ...plan.settings };
  let record: WorktreeRecord | undefined;
  if (plan.isolation === 'worktree') {
    const wt = await createWorktree(settings.cwd, { id: ids.agentId, description: plan.description, base: plan.base, agentId: ids.agentId });
    record = wt.record;
    settings.projectRoot = mapInto(wt.sourceTop, wt.record.path, settings.projectRoot);
    settings.cwd = wt.cwd;
    // The worktree is the agent's whole world: the parent's extra folders are not part of it.
    settings.addDirs = [];
    settings.appendSystemPrompt = [settings.appendSystemPrompt, worktreePrompt.trim()].filter(Boolean).join('\n\n');
  }
  report({ cwd: settings.cwd, ...(record ? { worktree: { path: record.path, branch: record.branch } } : {}) });

  let finished: RunFinished | undefined;
  let changes: WorktreeChanges | undefined;
  let announced = false;
  try {
    if (signal.aborted) return stoppedBeforeStart(notes);
    const child = host.openChild({ agentId: ids.agentId, settings, tools: plan.tools, allowSubagents: plan.allowSubagents, parentMeter: host.meter() });
    report({ sessionId: child.id });
    if (record) {
      record = { ...record, sessionId: child.id };
      writeRecord(record);
    }
    host.emit({
      type: 'subagent_started',
      agentId: ids.agentId,
      sessionId: child.id,
      parentSessionId: host.sessionId,
      parentToolUseId: ids.parentToolUseId,
      description: plan.description,
      ...(plan.agentName === undefined ? {} : { agent: plan.agentName }),
      background: plan.background,
      model: settings.model,
      cwd: settings.cwd,
      tools: [...plan.tools.map((t) => t.name), ...(plan.allowSubagents ? ['Task', 'TaskStatus', 'TaskResult'] : [])],
      isolation: plan.isolation,
      ...(record ? { worktree: { path: record.path, branch: record.branch } } : {}),
    });
    announced = true;
    let activity = '';
    for await (const e of child.run(plan.prompt, signal)) {
      host.emit({ type: 'subagent_event', agentId: ids.agentId, parentToolUseId: ids.parentToolUseId, event: e });
      if (e.type === 'run_finished') finished = e;
      else if (e.type === 'turn_started') report({ turns: e.turn });
      else if (e.type === 'usage') {
        const u = e.turnUsage;
        report({ costUsd: e.sessionCostUsd, tokens: u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens + u.outputTokens });
      }
      const now = activityOf(e);
      if (now !== undefined && now !== activity) {
        activity = now;
        report({ lastActivity: now });
      }
    }
  } finally {
    if (record) {
      report({ lastActivity: 'committing its changes' });
      const stopped = finished?.stopReason !== 'end_turn';
      const message = `${plan.description}\n\nWork of moat sub-agent ${ids.agentId}${stopped ? ', which stopped before it finished' : ''}.`;
      try {
        changes = await finishWorktree(record, message);
      } catch (e) {
        notes.push(`Its worktree ${record.path} could not be committed (${errorMessage(e)}); the changes are still there, uncommitted.`);
      }
    }
  }

  const f: RunFinished = finished ?? {
    type: 'run_finished',
    stopReason: signal.aborted ? 'aborted' : 'error',
    result: '',
    turns: 0,
    usage: ZERO_USAGE,
    costUsd: 0,
    durationMs: 0,
    ...(signal.aborted ? {} : { error: 'the sub-agent ended without a result' }),
  };
  const error = errorFor(f, settings.maxTurns);
  const outcome: SubagentOutcome = {
    status: statusFor(f.stopReason),
    stopReason: f.stopReason,
    result: f.result,
    turns: f.turns,
    usage: f.usage,
    costUsd: f.costUsd,
    durationMs: Math.round(performance.now() - started),
    ...(changes === undefined ? {} : { changes }),
    ...(error === undefined ? {} : { error }),
    notes,
  };
  if (!announced) return outcome;
  const { notes: _forTheParentOnly, ...ended } = outcome;
  host.emit({ type: 'subagent_finished', agentId: ids.agentId, parentToolUseId: ids.parentToolUseId, ...ended });
  return outcome;
}
