/** `/compact [instructions]` typed as a prompt (-p, stream-json input): a command for the session, not a message to the model. */
import type { UserPart } from '../agent/index.ts';
import type { SessionOp } from './ops.ts';

/**
 * The `compact` operation a prompt stands for, or undefined when it is an
 * ordinary prompt. Only a prompt that is all text can be the command (as in
 * Claude Code, which treats `/compact` in print mode as a command too); the
 * rest of the line is the summary's extra instructions.
 */
export function compactOp(content: string | readonly UserPart[]): Extract<SessionOp, { type: 'compact' }> | undefined {
  if (typeof content !== 'string' && !content.every((p) => p.type === 'text')) return undefined;
  const text = typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  const m = /^\s*\/compact(?:\s+([\s\S]*))?$/.exec(text);
  if (!m) return undefined;
  const instructions = (m[1] ?? '').trim();
  return instructions ? { type: 'compact', instructions } : { type: 'compact' };
}
