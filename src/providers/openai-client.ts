/**
 * What the two OpenAI adapters (Responses and Chat Completions) share: the
 * SDK client, configured so that moat alone decides retries and logging, the
 * raw-SSE request, and the mapping of the SDK's errors onto `ProviderError`.
 * Only the adapters import this file, and they are loaded lazily, so the
 * Anthropic default never evaluates the `openai` package.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { _iterSSEMessages, type ServerSentEvent } from 'openai/core/streaming';
import { tappedBody } from './drive-stream.ts';
import { COMPATIBLE_API, CONTEXT_TOO_LONG, contextTooLong, describe, isRecord, oneLine, parseJson, statusFailure } from './failure.ts';
import type { ProviderError, ProviderErrorKind } from './types.ts';

export interface OpenAIClientOptions {
  /** Local servers (Ollama, llama.cpp) take any key; the SDK insists on one. */
  apiKey: string | undefined;
  /** With `/v1`, e.g. `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  headers?: Record<string, string>;
  /** Time to the response headers, in ms (the idle watchdog covers the body). */
  timeoutMs?: number;
}

const SILENT_LOGGER = { error: (): void => {}, warn: (): void => {}, info: (): void => {}, debug: (): void => {} };

export function createOpenAIClient(o: OpenAIClientOptions): OpenAI {
  return new OpenAI({
    apiKey: o.apiKey ?? 'no-key',
    baseURL: o.baseURL,
    // The agent's retry policy decides; the SDK retrying underneath would double the waits.
    maxRetries: 0,
    logLevel: 'off',
    logger: SILENT_LOGGER,
    // The SDK's own env lookups (OPENAI_ORG_ID, OPENAI_PROJECT_ID) would leak into every OpenAI-compatible server.
    organization: null,
    project: null,
    ...(o.headers === undefined ? {} : { defaultHeaders: o.headers }),
    ...(o.timeoutMs === undefined ? {} : { timeout: o.timeoutMs }),
    fetch: wrappingErrors,
  });
}

/**
 * The SDK takes an error's message from `{"error": {"message": …}}` (or a bare object, as vLLM and Mistral
 * send). Ollama sends `{"error": "model \"x\" not found, …"}`, whose words the SDK drops, leaving
 * "404 not found"; such a body is given the usual shape.
 */
async function wrappingErrors(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return response;
  const text = await response.text();
  const body = parseJson(text);
  const fixed = isRecord(body) && typeof body['error'] === 'string' ? JSON.stringify({ error: { message: body['error'] } }) : text;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(fixed, { status: response.status, statusText: response.statusText, headers });
}

/** POSTs `body` as a streaming request and returns its raw SSE events, each chunk reported to `touch`. */
export async function openSse(
  client: OpenAI,
  path: string,
  body: Record<string, unknown>,
  signal: AbortSignal,
  touch: () => void,
): Promise<AsyncIterable<ServerSentEvent>> {
  const response = await client.post<unknown>(path, { body, stream: true, signal, maxRetries: 0 }).asResponse();
  const controller = new AbortController();
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  return _iterSSEMessages(tappedBody(response, touch), controller);
}

/** A failure before the body: an HTTP error status, or no response at all. */
export function openaiRequestError(api: string, baseURL: string, e: unknown): ProviderError {
  if (e instanceof APIUserAbortError) return { kind: 'aborted', message: 'Request aborted.' };
  if (e instanceof APIConnectionTimeoutError) {
    return { kind: 'connection', message: `${api} request timed out before the response started.` };
  }
  if (e instanceof APIConnectionError) {
    const why = e.cause === undefined ? e.message : describe(e.cause);
    return { kind: 'connection', message: oneLine(`Cannot reach the ${api} at ${baseURL}: ${why}`) };
  }
  if (e instanceof APIError && typeof e.status === 'number') {
    // Some servers say "context length exceeded" with a 400 and others with a 413; both are final.
    return statusFailure(api, e.status, apiMessage(e.error), e.headers, e.requestID ?? undefined);
  }
  return { kind: 'connection', message: oneLine(`Cannot reach the ${api} at ${baseURL}: ${describe(e)}`) };
}

/**
 * An error object sent inside the stream (`data: {"error": {...}}` for Chat
 * Completions, an `error` / `response.failed` event for Responses).
 */
export function inBandError(api: string, error: unknown): ProviderError {
  const body = isRecord(error) ? error : {};
  const code = typeof body['code'] === 'string' ? body['code'] : typeof body['type'] === 'string' ? body['type'] : 'error';
  const text = typeof body['message'] === 'string' ? body['message'] : 'unknown error';
  if (code === 'context_length_exceeded' || CONTEXT_TOO_LONG.test(text)) return contextTooLong(`${api} stream error (${code})`, text, { unknownWindow: api === COMPATIBLE_API });
  return { kind: inBandKind(code), message: oneLine(`${api} stream error (${code}): ${text}`) };
}

function inBandKind(code: string): ProviderErrorKind {
  if (/rate_limit/.test(code)) return 'rate_limit';
  if (/overloaded|server_is_overloaded|slow_down/.test(code)) return 'overloaded';
  if (/context_length|invalid_prompt|invalid_request/.test(code)) return 'bad_request';
  return 'stream';
}

/** The message of an API error body (`{"error": {"message": …}}` after the SDK unwrapped it), if any. */
function apiMessage(error: unknown): string | undefined {
  if (!isRecord(error)) return undefined;
  const m = error['message'];
  if (typeof m === 'string' && m.trim() !== '') return m;
  const inner = error['error'];
  return isRecord(inner) && typeof inner['message'] === 'string' ? inner['message'] : undefined;
}
