/** A finished tool run to a tool result. */
import { isRecord } from '../../util/index.ts';
import type { ToolResult } from '../types.ts';
import { decodeHelp } from './decode.ts';

/**
 * A finished tool run → a tool result. Tools print either the JSON envelope
 * `{"error": bool, "content": …, "metadata": {…}}` or plain text; a non-zero
 * exit is an error whose message is stderr. Content for the model is capped:
 * a runaway tool must not flood the context window.
 */

export interface OutputLimits {
  /** Characters of content passed to the model. */
  maxContentChars: number;
  /** Characters of stderr quoted in an error. */
  maxErrorChars: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxContentChars: 100_000, maxErrorChars: 4_000 };

type Bytes = Uint8Array | string;

function text(b: Bytes): string {
  return typeof b === 'string' ? b : decodeHelp(b).text;
}

function cap(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}\n[… ${s.length - max} more characters truncated]`;
}

interface Envelope {
  error: boolean;
  content: unknown;
  metadata: Record<string, unknown>;
}


/** The envelope, if stdout is one: an object with `content` and optionally `error` and `metadata`. */
function envelope(out: string): Envelope | undefined {
  const t = out.trim();
  if (!t.startsWith('{')) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return undefined;
  }
  if (!isRecord(v) || !('content' in v)) return undefined;
  if ('error' in v && typeof v.error !== 'boolean') return undefined;
  return { error: v.error === true, content: v.content, metadata: isRecord(v.metadata) ? v.metadata : {} };
}

/** One line for the UI: `count: 4 · paths: 4 items`. */
export function summarizeMetadata(meta: Record<string, unknown>): string {
  return Object.entries(meta)
    .map(([k, v]) => {
      const shown = Array.isArray(v) ? `${v.length} item${v.length === 1 ? '' : 's'}` : typeof v === 'string' ? v : JSON.stringify(v);
      return `${k}: ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}`;
    })
    .join(' · ');
}

export function mapOutput(exitCode: number, stdout: Bytes, stderr: Bytes, limits: OutputLimits = DEFAULT_OUTPUT_LIMITS): ToolResult {
  const out = text(stdout);
  const err = text(stderr).trim();
  if (exitCode !== 0) {
    const message = err || out.trim() || `the tool exited with code ${exitCode} and printed nothing`;
    return { content: cap(message, limits.maxErrorChars), isError: true };
  }
  const env = envelope(out);
  if (!env) {
    const plain = out.trim();
    return { content: plain === '' ? '(no output)' : cap(plain, limits.maxContentChars) };
  }
  let content = typeof env.content === 'string' ? env.content : JSON.stringify(env.content, null, 2);
  if (env.error && content.trim() === '') content = err || 'the tool reported an error without a message';
  const result: ToolResult = {
    content: env.error ? cap(content, limits.maxErrorChars) : cap(content === '' ? '(empty result)' : content, limits.maxContentChars),
  };
  if (env.error) result.isError = true;
  const summary = summarizeMetadata(env.metadata);
  if (summary !== '') result.display = { type: 'text', text: summary };
  return result;
}
