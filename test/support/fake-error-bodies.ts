/**
 * The fake server's HTTP error responses, as each real API words them: Anthropic's `{"type":"error",…}`,
 * OpenAI's `{"error":{message,type,param,code}}`, Google's `{"error":{code,message,status}}`, Bedrock's
 * `{"message":…}` with its type in a header, and Vertex (Anthropic's errors, but Google's own for quota).
 * A `contextTooLong()` item becomes each vendor's real answer to a conversation that no longer fits.
 */
import type { FakeHttpError } from './fake-anthropic-script.ts';
import { googleStatus } from './fake-gemini-frames.ts';

export type WireFormat = 'anthropic' | 'vertex' | 'openai-chat' | 'openai-responses' | 'gemini' | 'bedrock';

/** The `errorType` of `contextTooLong()`: rendered as the vendor's own context-overflow error. */
export const CONTEXT_TOO_LONG = 'context_too_long';

/** What each API answers, with a 400, when the conversation no longer fits the model's context window. */
const CONTEXT_BODIES: Record<WireFormat, unknown> = {
  anthropic: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } },
  // Vertex passes Anthropic's own refusal through.
  vertex: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } },
  bedrock: { message: 'Input is too long for requested model.' },
  'openai-responses': {
    error: { message: 'Your input exceeds the context window of this model. Please adjust your input and try again.', type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' },
  },
  'openai-chat': {
    error: {
      message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 210345 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
  gemini: { error: { code: 400, message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } },
};

export function errorResponse(format: WireFormat, error: FakeHttpError, requestId: string): Response {
  if (error.errorType === CONTEXT_TOO_LONG && error.rawBody === undefined) error = { ...error, rawBody: JSON.stringify(CONTEXT_BODIES[format]) };
  switch (format) {
    case 'anthropic':
      return anthropicError(error, requestId);
    case 'vertex':
      // Quota is Google's own answer, in Google's shape; everything else is Anthropic's, passed through.
      return error.status === 429 && error.rawBody === undefined ? googleError(error, requestId) : anthropicError(error, requestId);
    case 'bedrock':
      return bedrockError(error, requestId);
    case 'gemini':
      return googleError(error, requestId);
    case 'openai-chat':
    case 'openai-responses':
      return respond(error, JSON.stringify({ error: { message: error.message, type: error.errorType, param: null, code: null } }), { 'x-request-id': requestId });
  }
}

function anthropicError(error: FakeHttpError, requestId: string): Response {
  return respond(error, JSON.stringify({ type: 'error', error: { type: error.errorType, message: error.message } }), { 'request-id': requestId });
}

function bedrockError(error: FakeHttpError, requestId: string): Response {
  const s = error.status;
  const type =
    s === 429 ? 'ThrottlingException' : s === 503 ? 'ServiceUnavailableException' : s >= 500 ? 'InternalServerException' : s === 403 || s === 401 ? 'AccessDeniedException' : 'ValidationException';
  return respond(error, JSON.stringify({ message: error.message }), {
    'x-amzn-requestid': requestId,
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  });
}

function googleError(error: FakeHttpError, requestId: string): Response {
  const retryDelay = error.headers['retry-after'];
  const details = retryDelay === undefined ? {} : { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryDelay}s` }] };
  return respond(error, JSON.stringify({ error: { code: error.status, message: error.message, status: googleStatus(error.status), ...details } }), { 'x-request-id': requestId });
}

/** A raw body that is JSON goes as JSON (a vendor's own error); anything else as a proxy's HTML page. */
function respond(error: FakeHttpError, body: string, headers: Record<string, string>): Response {
  const raw = error.rawBody;
  const type = raw === undefined || raw.trimStart().startsWith('{') ? 'application/json; charset=utf-8' : 'text/html';
  return new Response(raw ?? body, { status: error.status, headers: { 'content-type': type, ...headers, ...error.headers } });
}
