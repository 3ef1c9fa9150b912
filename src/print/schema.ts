import { z } from 'zod';

/**
 * The public schema of `moat -p --output-format stream-json` (one object per
 * line) and `--output-format json` (the `result` object alone). Versioned
 * separately from moat's internal events; shaped like Claude Code's
 * stream-json so scripts written for it keep working. Documented in
 * docs/stream-json.md. Bump SCHEMA_VERSION on any incompatible change.
 */
export const SCHEMA_VERSION = 1;

const usage = z.object({
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
  permissionMode: z.string(),
  apiKeySource: z.string(),
  resumed: z.boolean(),
  ...base,
});

/** A retry of the model request: drop the partial stream_events since the last `message_start`. */
export const SystemApiRetry = z.object({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number().int(),
  retry_delay_ms: z.number(),
  error: z.string(),
  ...base,
});

/**
 * The model failed after its retries and the turn goes to the next model of
 * the fallback chain: drop the partial stream_events since the last
 * `message_start`, as after `api_retry`.
 */
export const SystemModelFallback = z.object({
  type: z.literal('system'),
  subtype: z.literal('model_fallback'),
  from_model: z.string(),
  to_model: z.string(),
  error: z.string(),
  ...base,
});

/** Usage and cost on one model, as Claude Code's `modelUsage` reports it. */
const modelUsage = z.object({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cacheReadInputTokens: z.number().int(),
  cacheCreationInputTokens: z.number().int(),
  costUSD: z.number(),
});

/** Partial output as it streams: the Anthropic stream events, simplified. */
export const StreamEvent = z.object({
  type: z.literal('stream_event'),
  event: z.union([
    z.object({ type: z.literal('message_start') }),
    z.object({
      type: z.literal('content_block_delta'),
      delta: z.union([
        z.object({ type: z.literal('text_delta'), text: z.string() }),
        z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
        z.object({ type: z.literal('input_json_delta'), partial_json: z.string(), tool_use_id: z.string() }),
      ]),
    }),
    z.object({
      type: z.literal('content_block_start'),
      content_block: z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string() }),
    }),
  ]),
  ...base,
});

/** A finished assistant message: its text and tool calls. */
export const AssistantLine = z.object({
  type: z.literal('assistant'),
  message: z.object({
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(z.union([textBlock, thinkingBlock, redactedThinkingBlock, toolUseBlock])),
    usage,
  }),
  ...base,
});

/** Tool results going back to the model. */
export const UserLine = z.object({
  type: z.literal('user'),
  message: z.object({ role: z.literal('user'), content: z.array(toolResultBlock) }),
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

export const ResultSubtype = z.enum(['success', 'error_max_turns', 'error_max_budget_usd', 'error_during_execution', 'interrupted']);

export const ResultLine = z.object({
  type: z.literal('result'),
  subtype: ResultSubtype,
  schema_version: z.literal(SCHEMA_VERSION),
  is_error: z.boolean(),
  result: z.string(),
  session_id: z.string(),
  uuid: z.string(),
  /** Model requests made in this run. */
  num_turns: z.number().int(),
  duration_ms: z.number(),
  /** Why the run stopped: end_turn, max_turns, budget, aborted, error. */
  stop_reason: z.string(),
  total_cost_usd: z.number(),
  usage,
  /** Per model (`provider/model` as chosen): more than one entry after a fallback. */
  modelUsage: z.record(z.string(), modelUsage).optional(),
  /** Present when is_error: one line saying what went wrong. */
  error: z.string().optional(),
  /** With `--worktree`: where the session's work was committed. */
  worktree: worktreeInfo.optional(),
});

export const OutputLine = z.union([
  SystemInit,
  SystemApiRetry,
  SystemModelFallback,
  SystemSubagentStarted,
  SystemSubagentFinished,
  StreamEvent,
  AssistantLine,
  UserLine,
  ResultLine,
]);

export type OutputLine = z.infer<typeof OutputLine>;
export type ResultLine = z.infer<typeof ResultLine>;
export type WorktreeInfo = z.infer<typeof worktreeInfo>;
