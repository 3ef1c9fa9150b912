/** The Anthropic Messages API adapter: the SDK client configured so that moat alone decides retries and logging. */
import { BaseAnthropic } from '@anthropic-ai/sdk';
import type { Provider } from '../types.ts';
import { streamMessages } from './stream.ts';

export interface AnthropicProviderOptions {
  apiKey: string;
  /**
   * Without `/v1`: the SDK appends `/v1/messages`. Defaults to the public API;
   * the SDK's own ANTHROPIC_BASE_URL lookup is bypassed so that all
   * configuration flows through the CLI.
   */
  baseURL?: string;
  /** Extra headers on every request (a company gateway's). */
  headers?: Record<string, string>;
  /** Time to the response headers, in ms (the idle watchdog covers the body). */
  timeoutMs?: number;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The SDK must never write to the terminal: the TUI owns it. */
const SILENT_LOGGER = {
  error: (): void => {},
  warn: (): void => {},
  info: (): void => {},
  debug: (): void => {},
};

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  // The base client: requests go through its `post` (stream.ts), so the ~20 resource
  // objects `new Anthropic()` builds (messages, beta, organization, ...) would only cost start-up.
  const client = new BaseAnthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? DEFAULT_BASE_URL,
    // The agent's retry policy decides; the SDK retrying underneath would double the waits.
    maxRetries: 0,
    logLevel: 'off',
    logger: SILENT_LOGGER,
    openTelemetry: false,
    ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
  });
  return {
    name: 'anthropic',
    stream: (request, streamOptions) => streamMessages(client, request, streamOptions, 'bytes'),
  };
}
