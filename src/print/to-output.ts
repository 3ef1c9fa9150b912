/** Maps the session's events to the public stream-json / json output lines (docs/stream-json.md). */
import type { SessionEvent } from '../protocol/index.ts';
import { toolUseResult, type ProviderErrorKind, type AssistantMessage, type ModelUsage, type ToolResultPart, type UserPart, type WorktreeChanges } from '../agent/index.ts';
import { newId } from '../util/index.ts';
import type { OutputLine, ResultLine, WorktreeInfo } from './schema.ts';
import { SCHEMA_VERSION } from './schema-version.ts';
import { toWireStreamEvents, wireUsage } from './wire-stream.ts';

export { wireUsage } from './wire-stream.ts';

function wireAssistantContent(m: AssistantMessage) {
  return m.content.map((p) => {
    switch (p.type) {
      case 'text':
        return { type: 'text' as const, text: p.text };
      case 'thinking':
        return { type: 'thinking' as const, thinking: p.thinking, signature: p.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking' as const, data: p.data };
      case 'tool_use':
        return { type: 'tool_use' as const, id: p.id, name: p.name, input: p.input };
    }
  });
}

type WireUserPart = { type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

function wireUserParts(parts: readonly UserPart[]): WireUserPart[] {
  return parts.flatMap((p): WireUserPart[] => {
    switch (p.type) {
      case 'text':
        return [{ type: 'text', text: p.text }];
      case 'image':
        return [{ type: 'image', source: { type: 'base64', media_type: p.mediaType, data: p.data } }];
      default:
        return [];
    }
  });
}

function wireToolResult(p: ToolResultPart) {
  const onlyText = p.content.every((c) => c.type === 'text');
  return {
    type: 'tool_result' as const,
    tool_use_id: p.toolUseId,
    content: onlyText
      ? p.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
      : p.content.map((c) =>
          c.type === 'text'
            ? { type: 'text' as const, text: c.text }
            : { type: 'image' as const, source: { type: 'base64' as const, media_type: c.mediaType, data: c.data } },
        ),
    is_error: p.isError,
  };
}

/** A branch with changes, or (changes undefined) one that was removed because nothing changed. */
export function wireWorktree(w: { id: string; branch: string; path: string }, changes: WorktreeChanges | undefined): WorktreeInfo {
  return {
    id: w.id,
    branch: w.branch,
    path: w.path,
    changed_files: (changes?.files ?? []).map((f) => ({ path: f.path, status: f.status, added: f.added, removed: f.removed })),
    diff_stat: changes?.diffStat ?? '',
  };
}

/** Who a line speaks for: the main session, or a sub-agent (with its own session). */
interface Origin {
  sessionId: string;
  model: string;
  parentToolUseId: string | null;
  agentId?: string;
  parentId?: string;
  /** The id of the assistant message streaming now (the provider's, or one made up for providers without). */
  messageId?: string;
}

const SUBTYPE = {
  end_turn: 'success',
  max_turns: 'error_max_turns',
  budget: 'error_max_budget_usd',
  aborted: 'error_during_execution',
  error: 'error_during_execution',
  no_structured_output: 'error_max_structured_output_retries',
} as const;

/**
 * Claude Code's names for what failed (the Agent SDK's `SDKAssistantMessageError`),
 * which `api_retry.error` and `model_fallback.trigger` carry.
 */
function apiErrorCategory(kind: ProviderErrorKind, status: number | undefined): string {
  switch (kind) {
    case 'overloaded':
      return 'overloaded';
    case 'rate_limit':
      return 'rate_limit';
    case 'auth':
      return 'authentication_failed';
    case 'bad_request':
      return status === 404 ? 'model_not_found' : 'invalid_request';
    case 'server':
      return 'server_error';
    case 'connection':
    case 'stream':
    case 'stalled':
    case 'aborted':
      return 'unknown';
  }
}

const ERROR_TEXT = {
  max_turns: 'the run reached --max-turns',
  budget: 'the run reached --max-budget-usd',
  aborted: 'interrupted',
  error: 'the run failed',
  no_structured_output: 'no answer matching the JSON Schema was given',
} as const;

/** What the init line lists besides the session's own facts. */
export interface InitInfo {
  apiKeySource: string;
  version: string;
  slashCommands?: string[];
  agents?: string[];
  skills?: string[];
  mcpServers?: { name: string; status: string }[];
}

export interface OutputOptions {
  /** `stream_event` lines (the model stream, event by event): only with --include-partial-messages. */
  includePartialMessages: boolean;
  /** With --replay-user-messages: the prompt of each run as a `user` line. */
  replayUserMessages?: boolean;
  /** `--output-format json` without --verbose writes the result line alone: the messages' lines are not built. */
  resultOnly?: boolean;
}

/**
 * Maps internal agent events to public output lines: none, one or several
 * per event (an assistant message is one line per content block, sharing the
 * message id; tool results are one line each). Sub-agent events are
 * unwrapped into ordinary lines tagged with `agent_id`, `parent_id` and
 * `parent_tool_use_id`; a sub-agent's own init and result lines are left
 * out (its `subagent_started` / `subagent_finished` lines say the same), so
 * the first and last lines stay the main session's. Keeps per run what the
 * result line reports: usage per model and the refused calls.
 */
export class OutputMapper {
  private readonly top: Origin = { sessionId: '', model: '', parentToolUseId: null };
  private readonly agents = new Map<string, Origin>();
  /** Structured results of finished calls, until their tool_result line is written. */
  private readonly finished = new Map<string, unknown>();
  /** The input of each call until it finishes: its structured result repeats some of it, as Claude Code's does. */
  private readonly inputs = new Map<string, unknown>();
  private denials: ResultLine['permission_denials'] = [];

  constructor(
    private readonly init: InitInfo,
    private readonly options: OutputOptions = { includePartialMessages: false },
  ) {}

  map(e: SessionEvent): OutputLine[] {
    return this.mapFrom(e, this.top);
  }

  private agentOrigin(agentId: string, parentToolUseId: string): Origin {
    return this.agents.get(agentId) ?? { sessionId: '', model: '', parentToolUseId, agentId, parentId: this.top.sessionId };
  }

  private base(origin: Origin) {
    return {
      session_id: origin.sessionId,
      uuid: newId(),
      parent_tool_use_id: origin.parentToolUseId,
      ...(origin.agentId === undefined ? {} : { agent_id: origin.agentId, parent_id: origin.parentId ?? '' }),
    };
  }

  private mapFrom(e: SessionEvent, origin: Origin): OutputLine[] {
    const isAgent = origin.agentId !== undefined;
    switch (e.type) {
      case 'subagent_started': {
        const child: Origin = { sessionId: e.sessionId, model: e.model, parentToolUseId: e.parentToolUseId, agentId: e.agentId, parentId: e.parentSessionId };
        this.agents.set(e.agentId, child);
        return [
          {
            type: 'system',
            subtype: 'subagent_started',
            description: e.description,
            agent: e.agent ?? null,
            background: e.background,
            model: e.model,
            cwd: e.cwd,
            tools: e.tools,
            isolation: e.isolation,
            branch: e.worktree?.branch ?? null,
            session_id: child.sessionId,
            uuid: newId(),
            parent_tool_use_id: child.parentToolUseId,
            agent_id: e.agentId,
            parent_id: e.parentSessionId,
          },
        ];
      }
      case 'subagent_event':
        return this.mapFrom(e.event, this.agentOrigin(e.agentId, e.parentToolUseId));
      case 'subagent_finished': {
        const child = this.agentOrigin(e.agentId, e.parentToolUseId);
        this.agents.delete(e.agentId);
        return [
          {
            type: 'system',
            subtype: 'subagent_finished',
            status: e.status,
            stop_reason: e.stopReason,
            result: e.result,
            num_turns: e.turns,
            duration_ms: e.durationMs,
            total_cost_usd: e.costUsd,
            usage: wireUsage(e.usage),
            worktree: e.changes ? wireWorktree(e.changes, e.changes) : null,
            ...(e.error === undefined ? {} : { error: e.error }),
            session_id: child.sessionId,
            uuid: newId(),
            parent_tool_use_id: child.parentToolUseId,
            agent_id: e.agentId,
            parent_id: child.parentId ?? '',
          },
        ];
      }
      case 'session_started':
        origin.sessionId = e.sessionId;
        origin.model = e.model;
        if (isAgent) return [];
        // A new run of the main session: the result line's tallies start again.
        this.denials = [];
        return [
          {
            type: 'system',
            subtype: 'init',
            schema_version: SCHEMA_VERSION,
            cwd: e.cwd,
            model: e.model,
            tools: e.tools,
            mcp_servers: this.init.mcpServers ?? [],
            permissionMode: e.permissionMode,
            slash_commands: this.init.slashCommands ?? [],
            apiKeySource: this.init.apiKeySource,
            output_style: 'default',
            agents: this.init.agents ?? [],
            skills: this.init.skills ?? [],
            plugins: [],
            moat_version: this.init.version,
            resumed: e.resumed,
            ...this.base(origin),
          },
        ];
      case 'user_message':
        if (isAgent || !this.options.replayUserMessages) return [];
        // The checkpoint id is the line's uuid: what the Agent SDK's rewindFiles(userMessageId) sends back.
        return [{ type: 'user', message: { role: 'user', content: wireUserParts(e.message.content) }, ...this.base(origin), ...(e.checkpointId === undefined ? {} : { uuid: e.checkpointId, checkpoint_id: e.checkpointId }) }];
      case 'model_stream': {
        if (e.event.type === 'message_start') origin.messageId = e.event.id ?? `msg_${newId().replaceAll('-', '')}`;
        if (!this.options.includePartialMessages) return [];
        return toWireStreamEvents(e.event, origin.messageId ?? '').map((event) => ({ type: 'stream_event' as const, event, ...this.base(origin) }));
      }
      // The deltas come once, as their own events; the wire mirror writes them between their blocks' starts and ends.
      case 'text_delta':
      case 'thinking_delta':
      case 'tool_call_started':
      case 'tool_call_delta':
        if (!this.options.includePartialMessages) return [];
        return toWireStreamEvents(e, origin.messageId ?? '').map((event) => ({ type: 'stream_event' as const, event, ...this.base(origin) }));
      case 'retry':
        return [
          {
            type: 'system',
            subtype: 'api_retry',
            attempt: e.attempt,
            max_retries: e.maxRetries,
            retry_delay_ms: e.delayMs,
            error_status: e.status ?? null,
            error: apiErrorCategory(e.kind, e.status),
            message: e.message,
            ...this.base(origin),
          },
        ];
      case 'model_fallback':
        return [
          {
            type: 'system',
            subtype: 'model_fallback',
            trigger: apiErrorCategory(e.trigger, undefined),
            original_model: e.from,
            fallback_model: e.to,
            content: `Switched to ${e.to}: ${e.from} kept failing (${e.reason})`,
            from_model: e.from,
            to_model: e.to,
            error: e.reason,
            ...this.base(origin),
          },
        ];
      case 'compacted':
        return [
          {
            type: 'system',
            subtype: 'compact_boundary',
            compact_metadata: { trigger: e.trigger, pre_tokens: e.preTokens, post_tokens: e.postTokens, duration_ms: e.durationMs },
            ...this.base(origin),
          },
        ];
      case 'assistant_message': {
        for (const p of e.message.content) if (p.type === 'tool_use') this.inputs.set(p.id, p.input);
        if (this.options.resultOnly) return [];
        const id = origin.messageId ?? `msg_${newId().replaceAll('-', '')}`;
        origin.messageId = undefined;
        return wireAssistantContent(e.message).map((block) => ({
          type: 'assistant' as const,
          message: {
            id,
            type: 'message' as const,
            role: 'assistant' as const,
            model: e.model ?? origin.model,
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage: wireUsage(e.usage),
          },
          ...this.base(origin),
          timestamp: new Date().toISOString(),
        }));
      }
      case 'permission_denied':
        this.denials.push({ tool_name: e.toolName, tool_use_id: e.toolUseId, tool_input: e.input });
        return [];
      case 'tool_finished':
        // A command the read-only sandbox stopped from writing (or connecting) did what Claude Code would have asked
        // before: in -p that is a refused call, so it is listed with the denials a script checks.
        if (e.display?.type === 'command' && e.display.sandbox === 'read-only' && (e.display.violations?.length ?? 0) > 0) {
          this.denials.push({ tool_name: e.name, tool_use_id: e.toolUseId, tool_input: this.inputs.get(e.toolUseId) });
        }
        if (!this.options.resultOnly) this.finished.set(e.toolUseId, toolUseResult(e, this.inputs.get(e.toolUseId)));
        this.inputs.delete(e.toolUseId);
        return [];
      case 'tool_results':
        if (this.options.resultOnly) return [];
        return e.results.map((r) => {
          const structured = this.finished.get(r.toolUseId);
          this.finished.delete(r.toolUseId);
          return {
            type: 'user' as const,
            message: { role: 'user' as const, content: [wireToolResult(r)] },
            ...(structured === undefined ? {} : { tool_use_result: structured }),
            ...this.base(origin),
            timestamp: new Date().toISOString(),
          };
        });
      case 'run_finished':
        return isAgent ? [] : [this.result(e)];
      default:
        return [];
    }
  }

  result(e: Extract<SessionEvent, { type: 'run_finished' }>, worktree?: WorktreeInfo): ResultLine {
    return {
      type: 'result',
      subtype: SUBTYPE[e.stopReason],
      schema_version: SCHEMA_VERSION,
      is_error: e.stopReason !== 'end_turn',
      // A failed run's result is what went wrong (as in Claude Code), so a script printing `result` shows the error.
      result: e.stopReason === 'error' && e.error ? e.error : e.result,
      api_error_status: e.apiErrorStatus ?? null,
      session_id: this.top.sessionId,
      uuid: newId(),
      num_turns: e.turns,
      duration_ms: e.durationMs,
      duration_api_ms: e.apiDurationMs ?? 0,
      stop_reason: e.stopReason,
      total_cost_usd: e.costUsd,
      usage: wireUsage(e.usage),
      modelUsage: e.modelUsage === undefined ? {} : wireModelUsage(e.modelUsage),
      permission_denials: this.denials,
      ...(e.structuredOutput === undefined ? {} : { structured_output: e.structuredOutput }),
      ...(e.error ? { error: e.error } : {}),
      // Claude Code's error results list what went wrong; the Agent SDK reads the list.
      ...(e.stopReason === 'end_turn' ? {} : { errors: [e.error ?? ERROR_TEXT[e.stopReason]] }),
      ...(worktree === undefined ? {} : { worktree }),
    };
  }
}

function wireModelUsage(m: Record<string, ModelUsage>): NonNullable<ResultLine['modelUsage']> {
  const out: NonNullable<ResultLine['modelUsage']> = {};
  for (const [model, { usage, costUsd, contextWindow, maxOutputTokens }] of Object.entries(m)) {
    out[model] = { ...usage, webSearchRequests: 0, costUSD: costUsd, contextWindow, maxOutputTokens };
  }
  return out;
}
