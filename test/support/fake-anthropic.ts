/**
 * A scripted fake model server for tests. Each request to a streaming
 * endpoint answers with the next scripted response, byte for byte in that
 * API's real wire format, so the vendors' SDKs and moat's adapters run against
 * it unchanged. One script serves every format:
 *
 * - `POST /v1/messages`: Anthropic Messages SSE (`event: <name>\ndata: <json>\n\n`);
 * - `POST /v1/chat/completions`: Chat Completions chunks (fake-openai-frames.ts);
 * - `POST /v1/responses`: Responses API events (fake-openai-frames.ts);
 * - `POST /v1beta/models/<model>:streamGenerateContent`: Gemini SSE (fake-gemini-frames.ts);
 * - Bedrock's and Vertex's paths for Anthropic's models (fake-bedrock-frames.ts; Vertex speaks Anthropic SSE);
 * - `GET /v1/models`, `GET /v1beta/models`: a model list.
 *
 * Error statuses carry each vendor's own body (fake-error-bodies.ts), and a request the real API would
 * refuse (fake-request-rules.ts) gets that refusal instead of its scripted reply.
 *
 *   const server = await startFakeAnthropic();
 *   server.script(reply().text('Hi').stop('end_turn'), httpError(429, { retryAfter: 1 }));
 *   createAnthropicProvider({ apiKey: 'fake', baseURL: server.url });
 */
import type { Server } from 'bun';
import {
  toResponse,
  type FakeReply,
  type FakeResponse,
  type FakeScriptItem,
  type FakeStep,
} from './fake-anthropic-script.ts';
import { bedrockFrames } from './fake-bedrock-frames.ts';
import { errorResponse, type WireFormat } from './fake-error-bodies.ts';
import { geminiFrames } from './fake-gemini-frames.ts';
import { chatFrames, responsesFrames } from './fake-openai-frames.ts';
import { refusal } from './fake-request-rules.ts';
import type { WireFrame } from './fake-wire.ts';

export * from './fake-anthropic-script.ts';
export type { WireFormat } from './fake-error-bodies.ts';

function formatOf(method: string, path: string): WireFormat | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/messages') return 'anthropic';
  // Vertex AI: Anthropic's SSE at Google's path.
  if (/^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/[^/:]+:streamRawPredict$/.test(path)) return 'vertex';
  // Bedrock: Anthropic's events in AWS's binary event stream.
  if (/^\/model\/[^/]+\/invoke-with-response-stream$/.test(path)) return 'bedrock';
  if (path === '/v1/chat/completions') return 'openai-chat';
  if (path === '/v1/responses') return 'openai-responses';
  if (/^\/v1(beta)?\/models\/[^/]+:streamGenerateContent$/.test(path)) return 'gemini';
  return undefined;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when the body was not JSON). */
  body: unknown;
}

export interface FakeAnthropic {
  /** Base URL without `/v1`, as the SDK's `baseURL` wants it. */
  url: string;
  port: number;
  /** Every request received, in order, including ones the script could not answer. */
  requests: RecordedRequest[];
  /** Appends responses; each `POST /v1/messages` consumes the next one. */
  script(...items: FakeScriptItem[]): void;
  /**
   * Responses reserved for matching requests, in order: with parallel agents
   * the order of requests is not fixed, but each agent's conversation is. A
   * string matches when the text of the request's first user message contains
   * it. Matching routes (oldest first) are served before the plain script.
   */
  route(match: RequestMatcher, ...items: FakeScriptItem[]): void;
  /** Responses not consumed yet (script and routes). */
  remaining(): number;
  close(): Promise<void>;
}

export type RequestMatcher = string | ((request: RecordedRequest) => boolean);

/** The text of the first user message of a request body (any of the formats): a conversation's identity. */
export function firstUserText(body: unknown): string {
  if (!isRecord(body)) return '';
  const list = body['messages'] ?? body['input'] ?? body['contents'];
  if (!Array.isArray(list)) return '';
  const first: unknown = list.find((m: unknown) => isRecord(m) && m['role'] === 'user');
  if (!isRecord(first)) return '';
  const content = first['content'] ?? first['parts'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) =>
      isRecord(p) && (p['type'] === 'text' || p['type'] === 'input_text' || p['type'] === undefined) && typeof p['text'] === 'string' ? p['text'] : '',
    )
    .join('');
}

function matches(match: RequestMatcher, request: RecordedRequest): boolean {
  return typeof match === 'string' ? firstUserText(request.body).includes(match) : match(request);
}

export interface FakeAnthropicOptions {
  port?: number;
  hostname?: string;
  /** Serve the script round and round instead of failing when it runs out (for benchmarks). */
  repeat?: boolean;
  /** Called for every request as it is recorded (the CLI entry logs them with --verbose). */
  onRequest?: (request: RecordedRequest) => void;
}

type Frame = { event: string; data: unknown } | { delayMs: number };

const encoder = new TextEncoder();

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue: FakeResponse[] = [];
  const routes: { match: RequestMatcher; queue: FakeResponse[] }[] = [];
  const served: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  // Stalled streams are parked here so close() can release them.
  const parked = new Set<() => void>();
  let counter = 0;

  const server: Server<undefined> = Bun.serve({
    port: options.port ?? 0,
    hostname: options.hostname ?? '127.0.0.1',
    // Bun's default 10 s idle timeout would cut slow or stalled SSE streams.
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      const recorded: RecordedRequest = {
        method: req.method,
        path: url.pathname,
        headers: Object.fromEntries(req.headers.entries()),
        body: parseJson(text),
      };
      requests.push(recorded);
      options.onRequest?.(recorded);
      const n = ++counter;
      if (req.method === 'GET' && (url.pathname === '/v1/models' || url.pathname === '/v1beta/models')) return modelList(url.pathname);
      const format = formatOf(req.method, url.pathname);
      if (format === undefined) {
        return apiError(404, 'not_found_error', `fake-anthropic: no route for ${req.method} ${url.pathname}`, n);
      }
      let next = routes.find((r) => r.queue.length > 0 && matches(r.match, recorded))?.queue.shift();
      next ??= queue.shift();
      if (next === undefined && options.repeat === true && served.length > 0) {
        queue.push(...served.splice(0));
        next = queue.shift();
      }
      if (next === undefined) {
        return apiError(500, 'api_error', `fake-anthropic: the script is empty (request #${n} had no response)`, n);
      }
      served.push(next);
      const body = recorded.body;
      const pathModel = (/models\/([^/:]+):/.exec(url.pathname) ?? /^\/model\/([^/]+)\//.exec(url.pathname))?.[1];
      const model = isRecord(body) && typeof body['model'] === 'string' ? body['model'] : (pathModel ?? 'claude-fake');
      // What the real API would refuse is refused, whatever was scripted (the scripted reply is used up).
      const refused = refusal(format, model, body);
      if (refused !== undefined) return errorResponse(format, refused, requestId(n));
      if (next.kind === 'http_error') return errorResponse(format, next, requestId(n));
      return sseResponse(next, wireFrames(format, next, model, n), n, req.signal, parked, format);
    },
  });

  const port = server.port ?? 0;
  return {
    url: `http://${options.hostname ?? '127.0.0.1'}:${port}`,
    port,
    requests,
    script(...items) {
      queue.push(...items.map(toResponse));
    },
    route(match, ...items) {
      routes.push({ match, queue: items.map(toResponse) });
    },
    remaining: () => queue.length + routes.reduce((n, r) => n + r.queue.length, 0),
    async close() {
      for (const release of parked) release();
      parked.clear();
      await server.stop(true);
    },
  };
}

function apiError(status: number, type: string, message: string, n: number): Response {
  return errorResponse('anthropic', { kind: 'http_error', status, errorType: type, message, headers: {} }, requestId(n));
}

function wireFrames(format: WireFormat, reply: FakeReply, model: string, n: number): WireFrame[] {
  switch (format) {
    case 'anthropic':
    case 'vertex':
      return framesFor(reply, model, n).map((f) =>
        'delayMs' in f ? f : { text: `event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n` },
      );
    case 'openai-chat':
      return chatFrames(reply, model, n);
    case 'openai-responses':
      return responsesFrames(reply, model, n);
    case 'gemini':
      return geminiFrames(reply, model, n);
    case 'bedrock':
      return bedrockFrames(framesFor(reply, model, n));
  }
}

function modelList(path: string): Response {
  const body =
    path === '/v1beta/models'
      ? { models: [{ name: 'models/gemini-fake', displayName: 'Gemini Fake', inputTokenLimit: 1_048_576, outputTokenLimit: 65_536, supportedGenerationMethods: ['generateContent'] }] }
      : {
          object: 'list',
          data: [{ id: 'fake-model', object: 'model', type: 'model', created: 1_764_000_000, owned_by: 'fake', display_name: 'Fake Model', created_at: '2025-11-24T00:00:00Z' }],
          has_more: false,
          first_id: 'fake-model',
          last_id: 'fake-model',
        };
  return Response.json(body);
}

function sseResponse(
  reply: FakeReply,
  frames: WireFrame[],
  n: number,
  signal: AbortSignal,
  parked: Set<() => void>,
  format: WireFormat,
): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const run = async (): Promise<void> => {
        for (const frame of frames) {
          if (signal.aborted) return;
          if ('delayMs' in frame) await Bun.sleep(frame.delayMs);
          else controller.enqueue('bytes' in frame ? frame.bytes : encoder.encode(frame.text));
        }
        switch (reply.ending.type) {
          case 'complete':
          case 'stream_error':
          case 'eof':
            controller.close();
            return;
          case 'drop':
            // Let the bytes already queued reach the socket first, or the client
            // would see a failed request instead of a cut body.
            await Bun.sleep(30);
            // Erroring with no reason resets the socket (the client sees ECONNRESET)
            // without Bun printing the error as if the server had crashed.
            controller.error(undefined);
            return;
          case 'stall':
            await new Promise<void>((resolve) => {
              parked.add(resolve);
              signal.addEventListener('abort', () => resolve(), { once: true });
            });
            try {
              controller.close();
            } catch {
              // Already cancelled by the client: nothing to close.
            }
            return;
        }
      };
      run().catch(() => {
        // The client went away mid-write; there is nobody left to tell.
      });
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': format === 'bedrock' ? 'application/vnd.amazon.eventstream' : format === 'gemini' ? 'text/event-stream' : 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      [format === 'anthropic' || format === 'vertex' ? 'request-id' : 'x-request-id']: requestId(n),
      ...reply.headers,
    },
  });
}

/** The whole reply as the real API would send it, minus what the ending cuts off. */
export function framesFor(reply: FakeReply, model: string, n: number): Frame[] {
  const u = reply.usage;
  const frames: Frame[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: `msg_fake_${String(n).padStart(6, '0')}`,
          type: 'message',
          role: 'assistant',
          model: reply.model ?? model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: u.input,
            cache_creation_input_tokens: u.cacheCreation,
            cache_read_input_tokens: u.cacheRead,
            output_tokens: 1,
          },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  let index = 0;
  let lastStop = -1;
  for (const step of reply.steps) {
    if (step.type === 'wait') {
      frames.push(...waitFrames(step.ms, step.pingEveryMs));
      continue;
    }
    frames.push(...blockFrames(step, index));
    lastStop = frames.length;
    frames.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  if (reply.ending.type !== 'complete') {
    // A failure mid-stream: the last block never ends.
    if (lastStop !== -1) frames.splice(lastStop, 1);
    if (reply.ending.type === 'stream_error') {
      frames.push({
        event: 'error',
        data: { type: 'error', error: { type: reply.ending.errorType, message: reply.ending.message } },
      });
    }
    return frames;
  }
  const hasTool = reply.steps.some((s) => s.type === 'tool_use');
  frames.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: reply.stopReason ?? (hasTool ? 'tool_use' : 'end_turn'), stop_sequence: null },
        usage: {
          input_tokens: u.input,
          cache_creation_input_tokens: u.cacheCreation,
          cache_read_input_tokens: u.cacheRead,
          output_tokens: u.output,
        },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return frames;
}

function blockFrames(step: Exclude<FakeStep, { type: 'wait' }>, index: number): Frame[] {
  const start = (block: unknown): Frame => ({
    event: 'content_block_start',
    data: { type: 'content_block_start', index, content_block: block },
  });
  const delta = (d: unknown): Frame => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
  const paced = (pieces: string[], delayMs: number | undefined, make: (piece: string) => unknown): Frame[] =>
    pieces.flatMap((piece, i) => {
      const f = delta(make(piece));
      return delayMs !== undefined && delayMs > 0 && i > 0 ? [{ delayMs }, f] : [f];
    });
  switch (step.type) {
    case 'text':
      return [
        start({ type: 'text', text: '' }),
        ...paced(chunks(step.text, step.chunkSize), step.delayMs, (text) => ({ type: 'text_delta', text })),
      ];
    case 'thinking':
      return [
        start({ type: 'thinking', thinking: '', signature: '' }),
        ...paced(chunks(step.thinking, step.chunkSize), step.delayMs, (thinking) => ({
          type: 'thinking_delta',
          thinking,
        })),
        delta({ type: 'signature_delta', signature: step.signature }),
      ];
    case 'redacted_thinking':
      return [start({ type: 'redacted_thinking', data: step.data })];
    case 'tool_use': {
      const bounds = [0, ...step.cuts, step.json.length];
      const pieces: string[] = [];
      for (let i = 0; i + 1 < bounds.length; i++) pieces.push(step.json.slice(bounds[i], bounds[i + 1]));
      return [
        start({ type: 'tool_use', id: step.id, name: step.name, input: {} }),
        ...paced(
          pieces.filter((p) => p !== ''),
          step.delayMs,
          (partial_json) => ({ type: 'input_json_delta', partial_json }),
        ),
      ];
    }
  }
}

function waitFrames(ms: number, pingEveryMs: number | undefined): Frame[] {
  if (pingEveryMs === undefined || pingEveryMs <= 0) return [{ delayMs: ms }];
  const frames: Frame[] = [];
  for (let t = pingEveryMs; t <= ms; t += pingEveryMs) {
    frames.push({ delayMs: pingEveryMs }, { event: 'ping', data: { type: 'ping' } });
  }
  const rest = ms % pingEveryMs;
  if (rest > 0) frames.push({ delayMs: rest });
  return frames;
}

/** Splits text into deltas; without a chunk size the whole text is one delta, as short replies are. */
function chunks(text: string, size: number | undefined): string[] {
  if (text === '') return [];
  if (size === undefined || size <= 0 || size >= text.length) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function requestId(n: number): string {
  return `req_fake_${String(n).padStart(6, '0')}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
