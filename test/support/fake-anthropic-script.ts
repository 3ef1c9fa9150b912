/**
 * Scenarios for the fake Anthropic server, as plain JSON-serialisable data.
 * The builders (`reply()`, `httpError()`) are sugar; `fake-anthropic-main.ts`
 * reads the same data from a JSON file.
 */
import { CONTEXT_TOO_LONG } from './fake-error-bodies.ts';

export interface FakeUsage {
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
}

/** Streaming pace for text and thinking: `chunkSize` characters per delta, `delayMs` between deltas. */
export interface Pace {
  chunkSize?: number;
  delayMs?: number;
}

export type FakeStep =
  | ({ type: 'text'; text: string } & Pace)
  | ({ type: 'thinking'; thinking: string; signature: string } & Pace)
  | { type: 'redacted_thinking'; data: string }
  /** `json` is sent verbatim (it may be invalid on purpose); `cuts` are the fragment boundaries in it. */
  | { type: 'tool_use'; id: string; name: string; json: string; cuts: number[]; delayMs?: number }
  /** Silence between blocks, optionally broken by `ping` events. */
  | { type: 'wait'; ms: number; pingEveryMs?: number };

/**
 * How the reply ends. Anything but `complete` leaves the last block open, as a
 * real failure in the middle of a stream does.
 */
export type FakeEnding =
  | { type: 'complete' }
  /** An SSE `error` event, then the server closes the stream. */
  | { type: 'stream_error'; errorType: string; message: string }
  /** The connection is cut mid-body (the client sees ECONNRESET). */
  | { type: 'drop' }
  /** The body ends cleanly without `message_stop`. */
  | { type: 'eof' }
  /** Nothing more is ever sent; the stream stays open until the client gives up. */
  | { type: 'stall' };

/**
 * What real OpenAI-compatible servers do differently from api.openai.com in
 * Chat Completions streams; each one is seen in the wild (Ollama, vLLM,
 * llama.cpp, LM Studio, gateways). Only the Chat Completions rendering reads these.
 */
export interface ChatQuirks {
  /** No usage chunk, even though `stream_options.include_usage` was asked for. */
  noUsage?: boolean;
  /** `absent`: no finish_reason at all; `stop`: "stop" although tools were called. */
  finishReason?: 'absent' | 'stop';
  /** Tool calls without ids. */
  noIds?: boolean;
  /** Each tool call's arguments in one piece, in the chunk that names it. */
  wholeArguments?: boolean;
  /** Fragments of the tool calls alternate between calls instead of one call after another. */
  interleave?: boolean;
  /** The body ends after the finish chunk without `data: [DONE]`. */
  noDone?: boolean;
  /** The field reasoning streams in: DeepSeek and vLLM say `reasoning_content`, Ollama and OpenRouter `reasoning`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** OpenAI's refusal: the text streams as `delta.refusal` (not `content`) and finish_reason is "stop". */
  refusal?: boolean;
}

export interface FakeReply {
  kind: 'reply';
  /** Chat Completions only: server quirks to reproduce. */
  chat?: ChatQuirks;
  steps: FakeStep[];
  /** Defaults to `tool_use` when the reply has a tool call, else `end_turn`. */
  stopReason?: string;
  usage: FakeUsage;
  ending: FakeEnding;
  /** Defaults to the model the request asked for. */
  model?: string;
  headers?: Record<string, string>;
}

export interface FakeHttpError {
  kind: 'http_error';
  status: number;
  errorType: string;
  message: string;
  headers: Record<string, string>;
  /** Sent instead of the API's JSON error body (e.g. a proxy's HTML page). */
  rawBody?: string;
}

export type FakeResponse = FakeReply | FakeHttpError;

/** Anything `server.script()` accepts: plain data, or a builder. */
export type FakeScriptItem = FakeResponse | { build(): FakeResponse };

export function toResponse(item: FakeScriptItem): FakeResponse {
  return 'build' in item ? item.build() : item;
}

export interface ToolUseOptions {
  id?: string;
  /** Cut the JSON into this many fragments of about equal length. */
  fragments?: number;
  /** Or cut at exactly these offsets in the JSON text (mid-token and mid-escape allowed). */
  cuts?: number[];
  /** Send this text instead of `JSON.stringify(input)` (e.g. with \u escapes, or invalid). */
  json?: string;
  delayMs?: number;
}

let toolCounter = 0;

export class ReplyBuilder {
  private readonly data: FakeReply = {
    kind: 'reply',
    steps: [],
    usage: { input: 10, output: 5, cacheCreation: 0, cacheRead: 0 },
    ending: { type: 'complete' },
  };

  text(text: string, pace: Pace = {}): this {
    this.data.steps.push({ type: 'text', text, ...pace });
    return this;
  }

  thinking(thinking: string, signature: string, pace: Pace = {}): this {
    this.data.steps.push({ type: 'thinking', thinking, signature, ...pace });
    return this;
  }

  redactedThinking(data: string): this {
    this.data.steps.push({ type: 'redacted_thinking', data });
    return this;
  }

  toolUse(name: string, input: unknown, options: ToolUseOptions = {}): this {
    const json = options.json ?? JSON.stringify(input);
    const cuts = options.cuts ?? evenCuts(json.length, options.fragments ?? 1);
    const step: FakeStep = {
      type: 'tool_use',
      id: options.id ?? `toolu_fake_${String(++toolCounter).padStart(4, '0')}`,
      name,
      json,
      cuts,
    };
    if (options.delayMs !== undefined) step.delayMs = options.delayMs;
    this.data.steps.push(step);
    return this;
  }

  wait(ms: number, options: { pingEveryMs?: number } = {}): this {
    this.data.steps.push({ type: 'wait', ms, ...options });
    return this;
  }

  usage(usage: Partial<FakeUsage>): this {
    this.data.usage = { ...this.data.usage, ...usage };
    return this;
  }

  model(model: string): this {
    this.data.model = model;
    return this;
  }

  headers(headers: Record<string, string>): this {
    this.data.headers = { ...this.data.headers, ...headers };
    return this;
  }

  chatQuirks(quirks: ChatQuirks): this {
    this.data.chat = { ...this.data.chat, ...quirks };
    return this;
  }

  stop(reason: string): this {
    this.data.stopReason = reason;
    return this;
  }

  streamError(errorType = 'overloaded_error', message = defaultMessage(errorType)): this {
    this.data.ending = { type: 'stream_error', errorType, message };
    return this;
  }

  drop(): this {
    this.data.ending = { type: 'drop' };
    return this;
  }

  eof(): this {
    this.data.ending = { type: 'eof' };
    return this;
  }

  stall(): this {
    this.data.ending = { type: 'stall' };
    return this;
  }

  build(): FakeReply {
    return structuredClone(this.data);
  }

  toJSON(): FakeReply {
    return this.build();
  }
}

export function reply(): ReplyBuilder {
  return new ReplyBuilder();
}

export interface HttpErrorOptions {
  /** `retry-after` header, in seconds (a number) or as an HTTP date (a string). */
  retryAfter?: number | string;
  retryAfterMs?: number;
  errorType?: string;
  message?: string;
  headers?: Record<string, string>;
  rawBody?: string;
}

export function httpError(status: number, options: HttpErrorOptions = {}): FakeHttpError {
  const headers: Record<string, string> = { ...options.headers };
  if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
  if (options.retryAfterMs !== undefined) headers['retry-after-ms'] = String(options.retryAfterMs);
  const errorType = options.errorType ?? errorTypeForStatus(status);
  const error: FakeHttpError = {
    kind: 'http_error',
    status,
    errorType,
    message: options.message ?? defaultMessage(errorType),
    headers,
  };
  if (options.rawBody !== undefined) error.rawBody = options.rawBody;
  return error;
}

/**
 * The API's refusal of a conversation that no longer fits the model's window: a 400 whose body is each
 * vendor's real one (fake-error-bodies.ts), "prompt is too long: …" for Anthropic, Gemini's "The input
 * token count (…) exceeds …", and so on.
 */
export function contextTooLong(): FakeHttpError {
  return httpError(400, { errorType: CONTEXT_TOO_LONG, message: 'prompt is too long: 208310 tokens > 200000 maximum' });
}

/** The `error.type` the real API uses for each status. */
export function errorTypeForStatus(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    504: 'timeout_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}

function defaultMessage(errorType: string): string {
  const messages: Record<string, string> = {
    invalid_request_error: 'messages: at least one message is required',
    authentication_error: 'invalid x-api-key',
    permission_error: 'Your API key does not have permission to use the specified resource.',
    not_found_error: 'model: claude-nope',
    request_too_large: 'Request exceeds the maximum allowed number of bytes.',
    rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit',
    overloaded_error: 'Overloaded',
    api_error: 'Internal server error',
    timeout_error: 'Request timed out',
  };
  return messages[errorType] ?? 'error';
}

/** Offsets that cut a string of `length` code units into `n` pieces of about equal length. */
function evenCuts(length: number, n: number): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < n; i++) {
    const at = Math.round((length * i) / n);
    if (at > 0 && at < length && at !== cuts.at(-1)) cuts.push(at);
  }
  return cuts;
}

/**
 * Reads responses written by hand in JSON (for `fake-anthropic-main.ts`):
 * fills the defaults the builders would, and names the first problem.
 */
export function parseScript(raw: unknown): FakeResponse[] {
  const list = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw['responses']) ? raw['responses'] : undefined;
  if (list === undefined) throw new Error('script must be a JSON array of responses (or {"responses": [...]})');
  return list.map((item: unknown, i) => {
    if (!isObject(item)) throw new Error(`response ${i}: not an object`);
    if (item['kind'] === 'http_error') {
      if (typeof item['status'] !== 'number') throw new Error(`response ${i}: http_error needs a numeric status`);
      const base = httpError(item['status']);
      return { ...base, ...item, headers: { ...base.headers, ...(isObject(item['headers']) ? item['headers'] : {}) } } as FakeHttpError;
    }
    if (item['kind'] === 'reply') {
      if (!Array.isArray(item['steps'])) throw new Error(`response ${i}: reply needs a steps array`);
      const base = reply().build();
      return {
        ...base,
        ...item,
        usage: { ...base.usage, ...(isObject(item['usage']) ? item['usage'] : {}) },
      } as FakeReply;
    }
    throw new Error(`response ${i}: kind must be "reply" or "http_error"`);
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
