/** moat's exit codes and how a failure becomes one line and a code. */
import type { RunStopReason } from '../agent/index.ts';
import { MoatError } from '../util/index.ts';

/** Documented in the README; scripts depend on them. */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  maxTurns: 3,
  budget: 4,
  interrupted: 130,
} as const;

export function exitCodeForStop(reason: RunStopReason): number {
  switch (reason) {
    case 'end_turn':
      return EXIT.ok;
    case 'max_turns':
      return EXIT.maxTurns;
    case 'budget':
      return EXIT.budget;
    case 'aborted':
      return EXIT.interrupted;
    case 'error':
    case 'no_structured_output':
      return EXIT.error;
  }
}

/** Maps a thrown error to an exit code and one line for stderr (a stack only for moat's own bugs). */
export function describeFailure(e: unknown): { code: number; message: string } {
  if (e instanceof MoatError) {
    const code = e.code === 'usage' || e.code === 'config' || e.code === 'no_api_key' || e.code === 'not_found' ? EXIT.usage : EXIT.error;
    return { code, message: `moat: ${e.message}` };
  }
  const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
  return { code: EXIT.error, message: `moat: internal error: ${detail}` };
}
