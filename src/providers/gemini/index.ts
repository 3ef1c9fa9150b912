/** The Gemini adapter, on Google's `@google/genai` SDK. */
import { GoogleGenAI } from '@google/genai';
import type { Provider } from '../types.ts';
import { streamGemini } from './stream.ts';

export interface GeminiProviderOptions {
  apiKey: string | undefined;
  /** Without the API version, e.g. `https://generativelanguage.googleapis.com`. */
  baseURL: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export function createGeminiProvider(
  name: string,
  o: GeminiProviderOptions,
  /** Whether a model thinks (takes `thinkingConfig`); the catalogue says, or guesses from the name. */
  reasons: (model: string) => boolean,
): Provider {
  const client = new GoogleGenAI({
    apiKey: o.apiKey ?? 'no-key',
    httpOptions: {
      baseUrl: o.baseURL,
      // Thought summaries, thought signatures and JSON-schema tool parameters are v1beta features.
      apiVersion: 'v1beta',
      ...(o.headers === undefined ? {} : { headers: o.headers }),
      ...(o.timeoutMs === undefined ? {} : { timeout: o.timeoutMs }),
    },
  });
  return { name, stream: (request, options) => streamGemini(client, o.baseURL, request, options, { reasoning: reasons(request.model) }) };
}
