/**
 * The vendor-neutral half of turning a failed request into a `ProviderError`:
 * HTTP status → failure class, `retry-after` headers, and one short line of
 * text. Each adapter's errors.ts adds what only its SDK knows.
 */
import type { ProviderError, ProviderErrorKind } from './types.ts';

/** How the Chat Completions adapter names its API: local servers and gateways, whose windows moat may not know. */
export const COMPATIBLE_API = 'OpenAI-compatible API';

/** Who aborted the request, when we did: the caller's signal or our idle watchdog. */
export type AbortCause = 'caller' | 'idle' | null;

const MAX_MESSAGE = 240;
const CONTEXT_MESSAGE_MAX = 400;

export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 409 || status >= 500) return 'server';
  // 400, 404, 413, 422 and every other 4xx: the request itself is wrong; sending it again cannot help.
  return 'bad_request';
}

/**
 * How long the server asks us to wait: `retry-after-ms` first (the precise
 * header Anthropic and OpenAI send), then `retry-after` as seconds or as an HTTP date.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return Math.round(n);
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** For bodies that are not the API's JSON (a proxy's HTML page, an empty body). */
export function statusText(status: number): string {
  const known: Record<number, string> = {
    400: 'bad request',
    401: 'unauthorized (check your API key)',
    403: 'forbidden',
    404: 'not found',
    408: 'request timeout',
    409: 'conflict',
    413: 'request too large',
    422: 'unprocessable request',
    429: 'rate limited',
    500: 'internal server error',
    502: 'bad gateway',
    503: 'service unavailable',
    504: 'gateway timeout',
    529: 'overloaded',
  };
  return known[status] ?? 'request failed';
}

export function abortedError(): ProviderError {
  return { kind: 'aborted', message: 'Request aborted.' };
}

export function stalledError(api: string, idleTimeoutMs: number): ProviderError {
  return { kind: 'stalled', message: `${api} stalled: no data for ${formatSeconds(idleTimeoutMs)}.` };
}

/** A failure while reading the body: the connection dropped, or we aborted it. */
export function bodyFailure(api: string, e: unknown, cause: AbortCause, idleTimeoutMs: number): ProviderError {
  if (cause === 'caller') return abortedError();
  if (cause === 'idle') return stalledError(api, idleTimeoutMs);
  return { kind: 'stream', message: oneLine(`${api} connection lost mid-response: ${describe(e)}`) };
}

/** The body ended cleanly before the message was complete. */
export function truncatedFailure(api: string): ProviderError {
  return { kind: 'stream', message: `${api} response ended before the message was complete.` };
}

/** A protocol violation in the body (malformed JSON, impossible event order). */
export function protocolFailure(api: string, detail: string): ProviderError {
  return { kind: 'stream', message: oneLine(`${api} sent a malformed stream: ${detail}`) };
}

/** An HTTP error status, with the API's own message when it sent one. */
export function statusFailure(
  api: string,
  status: number,
  detail: string | undefined,
  headers: Headers | undefined,
  requestId?: string,
): ProviderError {
  const kind = kindForStatus(status);
  if (kind === 'bad_request' && detail !== undefined && CONTEXT_TOO_LONG.test(detail)) {
    return contextTooLong(`${api} error ${status}`, detail, { status, ...(requestId === undefined ? {} : { requestId }), unknownWindow: api === COMPATIBLE_API });
  }
  const error: ProviderError = { kind, status, message: oneLine(`${api} error ${status}: ${detail ?? statusText(status)}`) };
  if (requestId) error.requestId = requestId;
  if (kind === 'rate_limit' && headers) {
    const wait = retryAfterMs(headers);
    if (wait !== undefined) error.retryAfterMs = wait;
  }
  return error;
}

/**
 * How the APIs say the conversation no longer fits the model's window: Anthropic (and Vertex) "prompt is
 * too long: 208310 tokens > 200000 maximum", Bedrock "Input is too long for requested model.", OpenAI
 * "Your input exceeds the context window of this model…" / "This model's maximum context length is …"
 * (code context_length_exceeded; vLLM, DeepSeek and OpenRouter word it the same), llama.cpp "the request
 * exceeds the available context size", Mistral "… too large for model with 32768 maximum context length",
 * Gemini "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).".
 */
export const CONTEXT_TOO_LONG = /prompt is too long|input is too long|context[_ ]length|context window|maximum context|context size|input token count .*exceeds/i;

/**
 * Final (sending it again cannot help), marked so the agent can tell it from other refusals, and worded as
 * what to do. Longer than other failures may be: the vendor's token counts and the way out both matter.
 * `unknownWindow`: the server is one whose window moat may not know (a local model, a gateway).
 */
export function contextTooLong(where: string, detail: string, o: { status?: number; requestId?: string; unknownWindow?: boolean } = {}): ProviderError {
  const hint = o.unknownWindow === true ? "; for a local model, set its context_window in config so moat compacts in time" : '';
  const head = `${where}: the conversation no longer fits the model's context window (`;
  const tail = `). /compact summarises it, /clear starts afresh, /model picks a model with a larger window${hint}.`;
  // The vendor's words are what gets cut, never the advice.
  const room = Math.max(40, CONTEXT_MESSAGE_MAX - head.length - tail.length);
  const said = oneLine(detail).replace(/\.$/, '');
  const error: ProviderError = {
    kind: 'bad_request',
    reason: 'context_too_long',
    message: `${head}${said.length > room ? `${said.slice(0, room - 3)}...` : said}${tail}`,
  };
  if (o.status !== undefined) error.status = o.status;
  if (o.requestId) error.requestId = o.requestId;
  return error;
}

/** A short description of a thrown value, with the system error code when there is one. */
export function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as Error & { code?: unknown }).code;
  // Bun appends advice meant for developers ("For more information, pass `verbose: true`…").
  const message = e.message.replace(/\s*For more information,.*$/s, '').trim() || e.name;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

export function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 3)}...` : flat;
}

export function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`;
}

export { isRecord } from '../util/index.ts';

export function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}
