/**
 * Anthropic failures → `ProviderError`. The agent's retry policy decides on
 * `kind` alone, and `message` is shown to the user as is, so it is always one
 * short line: never a stack, never a JSON dump, never an HTML error page.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ProviderError, ProviderErrorKind } from '../types.ts';

/** Who aborted the request, when we did: the caller's signal or our idle watchdog. */
export type AbortCause = 'caller' | 'idle' | null;

const MAX_MESSAGE = 240;

export function abortedError(): ProviderError {
  return { kind: 'aborted', message: 'Request aborted.' };
}

export function stalledError(idleTimeoutMs: number): ProviderError {
  return {
    kind: 'stalled',
    message: `Anthropic API stalled: no data for ${formatSeconds(idleTimeoutMs)}.`,
  };
}

/** A failure before the response body started: an HTTP error status, or no response at all. */
export function requestError(e: unknown, cause: AbortCause, idleTimeoutMs: number, baseURL: string): ProviderError {
  if (cause === 'caller') return abortedError();
  if (cause === 'idle') return stalledError(idleTimeoutMs);
  if (e instanceof APIUserAbortError) return abortedError();
  if (e instanceof APIConnectionTimeoutError) {
    return { kind: 'connection', message: 'Anthropic API request timed out before the response started.' };
  }
  if (e instanceof APIConnectionError) {
    return { kind: 'connection', message: oneLine(`Cannot reach the Anthropic API at ${baseURL}: ${causeText(e)}`) };
  }
  if (e instanceof APIError && typeof e.status === 'number') return httpError(e.status, e);
  return { kind: 'connection', message: oneLine(`Cannot reach the Anthropic API at ${baseURL}: ${describe(e)}`) };
}

/** A failure while reading the body: the connection dropped, or we aborted it. */
export function bodyError(e: unknown, cause: AbortCause, idleTimeoutMs: number): ProviderError {
  if (cause === 'caller') return abortedError();
  if (cause === 'idle') return stalledError(idleTimeoutMs);
  return { kind: 'stream', message: oneLine(`Anthropic API connection lost mid-response: ${describe(e)}`) };
}

/** The body ended cleanly but before `message_stop`. */
export function truncatedError(): ProviderError {
  return { kind: 'stream', message: 'Anthropic API response ended before the message was complete.' };
}

/** A protocol violation in the body (malformed JSON, impossible event order). */
export function protocolError(detail: string): ProviderError {
  return { kind: 'stream', message: oneLine(`Anthropic API sent a malformed stream: ${detail}`) };
}

/** An SSE `error` event: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`. */
export function sseError(data: unknown, requestId: string | undefined): ProviderError {
  const body = isRecord(data) && isRecord(data['error']) ? data['error'] : {};
  const type = typeof body['type'] === 'string' ? body['type'] : 'error';
  const text = typeof body['message'] === 'string' ? body['message'] : 'unknown error';
  const kind: ProviderErrorKind =
    type === 'overloaded_error' ? 'overloaded' : type === 'rate_limit_error' ? 'rate_limit' : 'stream';
  const error: ProviderError = { kind, message: oneLine(`Anthropic API stream error (${type}): ${text}`) };
  if (requestId !== undefined) error.requestId = requestId;
  return error;
}

export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 409 || status >= 500) return 'server';
  // 400, 404, 413, 422 and every other 4xx: the request itself is wrong; sending it again cannot help.
  return 'bad_request';
}

function httpError(status: number, e: APIError): ProviderError {
  const kind = kindForStatus(status);
  const detail = e.apiMessage ?? fallbackDetail(status);
  const error: ProviderError = { kind, status, message: oneLine(`Anthropic API error ${status}: ${detail}`) };
  const requestId = e.requestID ?? undefined;
  if (requestId) error.requestId = requestId;
  if (kind === 'rate_limit' && e.headers) {
    const wait = retryAfterMs(e.headers);
    if (wait !== undefined) error.retryAfterMs = wait;
  }
  return error;
}

/** For bodies that are not the API's JSON (a proxy's HTML page, an empty body). */
function fallbackDetail(status: number): string {
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

/**
 * How long the server asks us to wait: `retry-after-ms` first (the API's own
 * precise header), then `retry-after` as seconds or as an HTTP date.
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

function causeText(e: APIConnectionError): string {
  return e.cause === undefined ? e.message : describe(e.cause);
}

/** A short description of a thrown value, with the system error code when there is one. */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as Error & { code?: unknown }).code;
  // Bun appends advice meant for developers ("For more information, pass `verbose: true`…").
  const message = e.message.replace(/\s*For more information,.*$/s, '').trim() || e.name;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 3)}...` : flat;
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
