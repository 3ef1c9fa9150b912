/**
 * Requests the real APIs refuse, refused the same way by the fake, so a test of a request moat must shape
 * for one vendor fails when moat gets it wrong: Gemini's thinking config on models that do not think, and
 * Mistral's tool call ids and message order. Each answer is the vendor's own 400 body.
 */
import type { FakeHttpError } from './fake-anthropic-script.ts';
import type { WireFormat } from './fake-error-bodies.ts';

/** Gemini models that do not think: 1.x, 2.0 and Gemma answer any thinkingConfig with a 400. */
const GEMINI_NO_THINKING = /^(?:gemini-(?:1\.|2\.0)|gemma)/;
/** Models served by Mistral's API, which checks tool calls strictly. */
const MISTRAL = /mistral|stral-|ministral|pixtral/i;

/** The refusal the real API would send for this request, or undefined when it would take it. */
export function refusal(format: WireFormat, model: string, body: unknown): FakeHttpError | undefined {
  if (format === 'gemini') return geminiRefusal(model, body);
  if (format === 'openai-chat' && MISTRAL.test(model)) return mistralRefusal(body);
  return undefined;
}

function geminiRefusal(model: string, body: unknown): FakeHttpError | undefined {
  const config = record(record(body)['generationConfig'])['thinkingConfig'];
  if (config === undefined) return undefined;
  // As the Gemini API words it.
  if (GEMINI_NO_THINKING.test(model)) return bad(`Thinking is not enabled for models/${model}`);
  const thinking = record(config);
  // Flash-Lite thinks only when asked: thoughts cannot be included while its thinking is off.
  if (/flash-lite/.test(model) && thinking['includeThoughts'] === true && (thinking['thinkingBudget'] === undefined || thinking['thinkingBudget'] === 0)) {
    return bad('Unable to submit request because Thinking_config.include_thoughts is only enabled when thinking is enabled.');
  }
  return undefined;
}

function mistralRefusal(body: unknown): FakeHttpError | undefined {
  const messages = record(body)['messages'];
  if (!Array.isArray(messages)) return undefined;
  let previous = '';
  for (const m of messages.map(record)) {
    const ids = [m['tool_call_id'], ...(Array.isArray(m['tool_calls']) ? m['tool_calls'].map((c) => record(c)['id']) : [])].filter((id) => id !== undefined);
    for (const id of ids) {
      if (typeof id !== 'string' || !/^[a-zA-Z0-9]{9}$/.test(id)) {
        return { ...bad(`Tool call id was ${String(id)} but must be a-z, A-Z, 0-9, with a length of 9.`), rawBody: mistralBody(`Tool call id was ${String(id)} but must be a-z, A-Z, 0-9, with a length of 9.`, 'invalid_function_call', '3280') };
      }
    }
    const role = String(m['role']);
    if (previous === 'tool' && role === 'user') {
      return { ...bad("Unexpected role 'user' after role 'tool'"), rawBody: mistralBody("Unexpected role 'user' after role 'tool'", 'invalid_request_message_order', '3230') };
    }
    previous = role;
  }
  return undefined;
}

/** Mistral's errors are not wrapped in `{"error": …}`. */
function mistralBody(message: string, type: string, code: string): string {
  return JSON.stringify({ object: 'error', message, type, param: null, code });
}

function bad(message: string): FakeHttpError {
  return { kind: 'http_error', status: 400, errorType: 'invalid_request_error', message, headers: {} };
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
