/**
 * Anthropic failures → `ProviderError`. The agent's retry policy decides on
 * `kind` alone, and `message` is shown to the user as is, so it is always one
 * short line: never a stack, never a JSON dump, never an HTML error page.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import {
  CONTEXT_TOO_LONG,
  contextTooLong,
  describe,
  isRecord,
  kindForStatus,
  oneLine,
  retryAfterMs,
  statusText,
} from '../failure.ts';
import type { ProviderError, ProviderErrorKind } from '../types.ts';

export { kindForStatus, retryAfterMs };

/**
 * A failure before the response body started: an HTTP error status, or no response at all.
 * Aborts by the caller or the idle watchdog never reach here: `driveStream` names those itself.
 */
export function requestError(e: unknown, baseURL: string): ProviderError {
  if (e instanceof APIUserAbortError) return { kind: 'aborted', message: 'Request aborted.' };
  if (e instanceof APIConnectionTimeoutError) {
    return { kind: 'connection', message: 'Anthropic API request timed out before the response started.' };
  }
  if (e instanceof APIConnectionError) {
    return { kind: 'connection', message: oneLine(`Cannot reach the Anthropic API at ${baseURL}: ${causeText(e)}`) };
  }
  if (e instanceof APIError && typeof e.status === 'number') return httpError(e.status, e);
  return { kind: 'connection', message: oneLine(`Cannot reach the Anthropic API at ${baseURL}: ${describe(e)}`) };
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

function httpError(status: number, e: APIError): ProviderError {
  const kind = kindForStatus(status);
  // Bedrock's errors are `{"message": …}` (its type in a header), not Anthropic's `{"error": {"message": …}}`.
  const bare = isRecord(e.error) && typeof e.error['message'] === 'string' ? e.error['message'] : undefined;
  const detail = e.apiMessage ?? bare ?? statusText(status);
  const requestId = e.requestID ?? undefined;
  if (kind === 'bad_request' && CONTEXT_TOO_LONG.test(detail)) return contextTooLong(`Anthropic API error ${status}`, detail, { status, ...(requestId === undefined ? {} : { requestId }) });
  const error: ProviderError = { kind, status, message: oneLine(`Anthropic API error ${status}: ${detail}`) };
  if (requestId) error.requestId = requestId;
  if (kind === 'rate_limit' && e.headers) {
    const wait = retryAfterMs(e.headers);
    if (wait !== undefined) error.retryAfterMs = wait;
  }
  return error;
}

function causeText(e: APIConnectionError): string {
  return e.cause === undefined ? e.message : describe(e.cause);
}

