/**
 * `@google/genai` failures → `ProviderError`. The SDK puts the API's JSON
 * error body in the message of its `ApiError`; the user sees only the API's
 * own message, and a 429's `RetryInfo.retryDelay` becomes the wait.
 */
import { ApiError } from '@google/genai';
import { describe, isRecord, oneLine, parseJson, statusFailure } from '../failure.ts';
import type { ProviderError } from '../types.ts';

const API = 'Gemini API';

export function geminiRequestError(e: unknown, baseURL: string): ProviderError {
  if (e instanceof ApiError) return apiError(e);
  if (e instanceof Error && e.name === 'AbortError') return { kind: 'aborted', message: 'Request aborted.' };
  return { kind: 'connection', message: oneLine(`Cannot reach the ${API} at ${baseURL}: ${describe(e)}`) };
}

/** Errors thrown while reading the body: an error object in the stream is the API speaking. */
export function geminiIterationError(e: unknown): ProviderError | undefined {
  return e instanceof ApiError ? apiError(e) : undefined;
}

function apiError(e: ApiError): ProviderError {
  const body = parseJson(e.message.slice(Math.max(0, e.message.indexOf('{'))));
  const error = isRecord(body) && isRecord(body['error']) ? body['error'] : {};
  const message = typeof error['message'] === 'string' ? error['message'] : undefined;
  const failure = statusFailure(API, e.status, message, undefined);
  const wait = retryDelayMs(error['details']);
  if (failure.kind === 'rate_limit' && wait !== undefined) failure.retryAfterMs = wait;
  return failure;
}

/** `details: [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "31s"}]` → ms. */
function retryDelayMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    if (!isRecord(d) || typeof d['retryDelay'] !== 'string') continue;
    const m = /^(\d+(?:\.\d+)?)s$/.exec(d['retryDelay']);
    if (m?.[1] !== undefined) return Math.round(Number(m[1]) * 1000);
  }
  return undefined;
}
