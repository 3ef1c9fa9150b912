/**
 * Pieces shared by the fake server's wire formats: a frame is bytes to send
 * or a pause, and a scripted step is cut into the deltas a real server would
 * stream.
 */
import type { FakeReply, FakeStep, FakeUsage } from './fake-anthropic-script.ts';

export type WireFrame = { text: string } | { bytes: Uint8Array } | { delayMs: number };

/** Splits text into deltas; without a chunk size the whole text is one delta, as short replies are. */
export function textPieces(text: string, size: number | undefined): string[] {
  if (text === '') return [];
  if (size === undefined || size <= 0 || size >= text.length) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A tool call's JSON cut at its scripted offsets. */
export function toolPieces(step: Extract<FakeStep, { type: 'tool_use' }>): string[] {
  const bounds = [0, ...step.cuts, step.json.length];
  const pieces: string[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) pieces.push(step.json.slice(bounds[i], bounds[i + 1]));
  return pieces.filter((p) => p !== '');
}

/** Frames with `delayMs` between them (not before the first), as a paced server sends deltas. */
export function paced(frames: WireFrame[], delayMs: number | undefined): WireFrame[] {
  if (delayMs === undefined || delayMs <= 0) return frames;
  return frames.flatMap((f, i) => (i > 0 ? [{ delayMs }, f] : [f]));
}

/** Silence, optionally broken by keep-alive frames. */
export function waitFrames(ms: number, pingEveryMs: number | undefined, ping: WireFrame): WireFrame[] {
  if (pingEveryMs === undefined || pingEveryMs <= 0) return [{ delayMs: ms }];
  const frames: WireFrame[] = [];
  for (let t = pingEveryMs; t <= ms; t += pingEveryMs) frames.push({ delayMs: pingEveryMs }, ping);
  const rest = ms % pingEveryMs;
  if (rest > 0) frames.push({ delayMs: rest });
  return frames;
}

/** The stop reason a reply means, in moat's (Anthropic's) terms. */
export function stopOf(reply: FakeReply): string {
  return reply.stopReason ?? (reply.steps.some((s) => s.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

/** Prompt tokens as OpenAI and Gemini count them: cached ones included. */
export function promptTokens(u: FakeUsage): number {
  return u.input + u.cacheRead + u.cacheCreation;
}

/** OpenAI's call ids look like `call_…`; the scripts' Anthropic-style ids are renamed the same way everywhere. */
export function callId(id: string): string {
  return id.replace(/^toolu_/, 'call_');
}
