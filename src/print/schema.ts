/** The public `-p` output schema (json and stream-json lines): zod, the single source of each line type. */
import { z } from 'zod';

/**
 * The public schema of `moat -p --output-format stream-json` (one object per
 * line) and `--output-format json` (the `result` object alone). Versioned
 * separately from moat's internal events; shaped like Claude Code's
 * stream-json so scripts written for it keep working. Documented in
 * docs/stream-json.md. Bump SCHEMA_VERSION (schema-version.ts) on any incompatible change.
 */
import { SCHEMA_VERSION } from './schema-version.ts';

export { SCHEMA_VERSION };

export const usage = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_creation_input_tokens: z.number().int(),
  cache_read_input_tokens: z.number().int(),
});

const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
const toolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const imageBlock = z.object({
  type: z.literal('image'),
  source: z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
});
const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]),
  is_error: z.boolean(),
});

/**
 * Fields every line carries. Lines that come from a sub-agent also carry
 * `agent_id` (the sub-agent), `parent_id` (the session that started it) and
 * `parent_tool_use_id` (the `task` call that started it); their `session_id`
 * is the sub-agent's own session.
 */
const base = {
  session_id: z.string(),
  uuid: z.string(),
  parent_tool_use_id: z.string().nullable(),
  agent_id: z.string().optional(),
  parent_id: z.string().optional(),
};

const changedFile = z.object({
  path: z.string(),
  /** A added, M modified, D deleted. */
  status: z.string(),
  /** Null for binary files. */
  added: z.number().int().nullable(),
  removed: z.number().int().nullable(),
});

/** Work committed on a moat branch (a sub-agent's worktree, or `-p --worktree`). */
const worktreeInfo = z.object({
  id: z.string(),
  branch: z.string(),
  path: z.string(),
  /** Empty when nothing changed (the worktree and branch were then removed). */
  changed_files: z.array(changedFile),
  diff_stat: z.string(),
});

export const SystemInit = z.object({
  type: z.literal('system'),
  subtype: z.literal('init'),
  schema_version: z.literal(SCHEMA_VERSION),
  cwd: z.string(),
  model: z.string(),
  tools: z.array(z.string()),
  /** MCP servers and their state ([] without MCP). */
  mcp_servers: z.array(z.object({ name: z.string(), status: z.string() })),
  permissionMode: z.string(),
  /** What `/name` runs: skills and custom commands. */
  slash_commands: z.array(z.string()),
  apiKeySource: z.string(),
  output_style: z.string(),
  /** Agent definitions the Task tool can run. */
  agents: z.array(z.string()),
  skills: z.array(z.string()),
  plugins: z.array(z.object({ name: z.string(), path: z.string() })),
  moat_version: z.string(),
  resumed: z.boolean(),
  ...base,
});

/** A retry of the model request: drop the partial stream_events since the last `message_start`. */
export const SystemApiRetry = z.object({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number().int(),
  /** The most retries this request gets. */
  max_retries: z.number().int(),
  retry_delay_ms: z.number(),
  /** The failed attempt's HTTP status; null when it failed without one (a dropped connection, a stalled stream). */
  error_status: z.number().int().nullable(),
  /** What failed, in Claude Code's words: overloaded, rate_limit, server_error, authentication_failed, invalid_request, model_not_found, unknown. */
  error: z.string(),
  /** The failure as one line for a person. */
  message: z.string(),
  ...base,
});

/** The history was replaced by a summary (Claude Code's compact boundary): the context in use is now `post_tokens`. */
export const SystemCompactBoundary = z.object({
  type: z.literal('system'),
  subtype: z.literal('compact_boundary'),
  compact_metadata: z.object({
    trigger: z.enum(['manual', 'auto']),
    /** What the history took: the summary request's input tokens. */
    pre_tokens: z.number().int(),
    /** What the summary takes. */
    post_tokens: z.number().int(),
    duration_ms: z.number().int(),
  }),
  ...base,
});

const wireUsage = usage;

/** The Anthropic Messages API stream events, as the API sends them (`index` is the content block's). */
export const WireStreamEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message_start'),
    message: z.object({
      id: z.string(),
      type: z.literal('message'),
      role: z.literal('assistant'),
      model: z.string(),
      content: z.tuple([]),
      stop_reason: z.null(),
      stop_sequence: z.null(),
      usage: wireUsage,
    }),
  }),
  z.object({
    type: z.literal('content_block_start'),
    index: z.number().int(),
    content_block: z.discriminatedUnion('type', [
      z.object({ type: z.literal('text'), text: z.literal('') }),
      z.object({ type: z.literal('thinking'), thinking: z.literal(''), signature: z.literal('') }),
      z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
      z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.object({}).strict() }),
    ]),
  }),
  z.object({
    type: z.literal('content_block_delta'),
    index: z.number().int(),
    delta: z.discriminatedUnion('type', [
      z.object({ type: z.literal('text_delta'), text: z.string() }),
      z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
      z.object({ type: z.literal('signature_delta'), signature: z.string() }),
      z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
    ]),
  }),
  z.object({ type: z.literal('content_block_stop'), index: z.number().int() }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string(), stop_sequence: z.null() }),
    usage: wireUsage,
  }),
  z.object({ type: z.literal('message_stop') }),
]);

/**
 * The model failed after its retries and the turn goes to the next model of
 * the fallback chain: drop the partial stream_events since the last
 * `message_start`, as after `api_retry`.
 */
export const SystemModelFallback = z.object({
  type: z.literal('system'),
  subtype: z.literal('model_fallback'),
  /** What made the model fail, as api_retry's `error`. */
  trigger: z.string(),
  original_model: z.string(),
  fallback_model: z.string(),
  /** One line for a person. */
  content: z.string(),
  /** The same as original_model and fallback_model (moat's earlier names). */
  from_model: z.string(),
  to_model: z.string(),
  /** The last failure of the original model. */
  error: z.string(),
  ...base,
});

/** Partial output as it streams (only with --include-partial-messages): the model's stream events. */
export const StreamEvent = z.object({
  type: z.literal('stream_event'),
  event: WireStreamEvent,
  ...base,
});

/**
 * One content block of a finished assistant message. A message with several
 * blocks is written as several lines sharing `message.id`, as Claude Code does.
 */
export const AssistantLine = z.object({
  type: z.literal('assistant'),
  message: z.object({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(z.union([textBlock, thinkingBlock, redactedThinkingBlock, toolUseBlock])),
    stop_reason: z.null(),
    stop_sequence: z.null(),
    usage,
  }),
  timestamp: z.string(),
  ...base,
});

/**
 * A user message: one tool result going back to the model (with its
 * structured `tool_use_result`), or, with --replay-user-messages, a prompt.
 */
export const UserLine = z.object({
  type: z.literal('user'),
  message: z.object({ role: z.literal('user'), content: z.array(z.union([toolResultBlock, textBlock, imageBlock])) }),
  /** The tool's structured result: the file read, the command's output, the edit's patch; `"Error: …"` on failure. */
  tool_use_result: z.unknown().optional(),
  /** On tool results: when the result was written. */
  timestamp: z.string().optional(),
  /** On a replayed prompt: the point just before it (also its uuid), for `rewind_files` and `moat rewind`. */
  checkpoint_id: z.string().optional(),
  ...base,
});

/** A sub-agent began (after waiting for a free slot, if it had to). */
export const SystemSubagentStarted = z.object({
  type: z.literal('system'),
  subtype: z.literal('subagent_started'),
  description: z.string(),
  /** The named definition it runs, or null for a general-purpose one. */
  agent: z.string().nullable(),
  background: z.boolean(),
  model: z.string(),
  cwd: z.string(),
  tools: z.array(z.string()),
  isolation: z.enum(['worktree', 'none']),
  branch: z.string().nullable(),
  ...base,
});

/** A sub-agent ended; its final answer, spending and changes. */
export const SystemSubagentFinished = z.object({
  type: z.literal('system'),
  subtype: z.literal('subagent_finished'),
  status: z.enum(['done', 'failed', 'stopped']),
  stop_reason: z.string(),
  result: z.string(),
  num_turns: z.number().int(),
  duration_ms: z.number(),
  total_cost_usd: z.number(),
  usage,
  worktree: worktreeInfo.nullable(),
  error: z.string().optional(),
  ...base,
});

export const ResultSubtype = z.enum(['success', 'error_max_turns', 'error_max_budget_usd', 'error_during_execution', 'error_max_structured_output_retries']);

/** Usage and cost on one model, as Claude Code's `modelUsage` reports it. */
const modelUsage = z.object({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cacheReadInputTokens: z.number().int(),
  cacheCreationInputTokens: z.number().int(),
  /** moat has no server-side web search: always 0, present because the Agent SDK's type requires it. */
  webSearchRequests: z.number().int(),
  costUSD: z.number(),
  contextWindow: z.number().int(),
  maxOutputTokens: z.number().int(),
});

export const ResultLine = z.object({
  type: z.literal('result'),
  subtype: ResultSubtype,
  schema_version: z.literal(SCHEMA_VERSION),
  is_error: z.boolean(),
  /** The final answer; on a failed run, what went wrong. */
  result: z.string(),
  /** The HTTP status of the model request that failed the run; null otherwise. */
  api_error_status: z.number().int().nullable(),
  session_id: z.string(),
  uuid: z.string(),
  /** Model requests made in this run. */
  num_turns: z.number().int(),
  duration_ms: z.number(),
  /** The part of duration_ms spent waiting on model requests. */
  duration_api_ms: z.number(),
  /** Why the run stopped: end_turn, max_turns, budget, aborted, error. */
  stop_reason: z.string(),
  total_cost_usd: z.number(),
  usage,
  /** Per model (`provider/model` as chosen): more than one entry after a fallback; {} when no request was made. */
  modelUsage: z.record(z.string(), modelUsage),
  /** Calls refused by a rule, a hook, the mode or the person, in order. */
  permission_denials: z.array(z.object({ tool_name: z.string(), tool_use_id: z.string(), tool_input: z.unknown() })),
  /** With --json-schema: the final answer, valid against the schema. */
  structured_output: z.unknown().optional(),
  /** Present when is_error: one line saying what went wrong. */
  error: z.string().optional(),
  /** Present when is_error: what went wrong, as Claude Code lists it. */
  errors: z.array(z.string()).optional(),
  /** With `--worktree`: where the session's work was committed. */
  worktree: worktreeInfo.optional(),
});

export const OutputLine = z.union([
  SystemInit,
  SystemApiRetry,
  SystemModelFallback,
  SystemCompactBoundary,
  SystemSubagentStarted,
  SystemSubagentFinished,
  StreamEvent,
  AssistantLine,
  UserLine,
  ResultLine,
]);

export type OutputLine = z.infer<typeof OutputLine>;
export type WireStreamEvent = z.infer<typeof WireStreamEvent>;
export type WireUsage = z.infer<typeof usage>;
export type ResultLine = z.infer<typeof ResultLine>;
export type WorktreeInfo = z.infer<typeof worktreeInfo>;
