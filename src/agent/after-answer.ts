/** What one step of the agent loop leads to, and the table of what happens after an answer without tool calls. */
import type { StopReason } from '../providers/index.ts';
import type { RunStopReason } from './events.ts';
import type { HookOutcome } from './hooks.ts';
import type { RequestFailure, Run } from './run.ts';
import { CONTINUE_PROMPT } from './settings.ts';
import { MAX_STRUCTURED_OUTPUT_RETRIES, STRUCTURED_OUTPUT_REMINDER } from './structured-output.ts';

/**
 * Where the loop goes after a step: on to the next request; the same turn
 * again, uncounted (the history was compacted after the API refused it as too
 * long); or the end of the run.
 */
export type Step =
  | { kind: 'continue' }
  | { kind: 'resend' }
  | { kind: 'finish'; reason: RunStopReason; error?: string; failure?: RequestFailure };

export const CONTINUE: Step = { kind: 'continue' };

export function finish(reason: RunStopReason, error?: string, failure?: RequestFailure): Step {
  return { kind: 'finish', reason, ...(error === undefined ? {} : { error }), ...(failure === undefined ? {} : { failure }) };
}

/** A Stop hook that keeps blocking cannot keep the run going forever. */
const MAX_STOP_HOOK_ROUNDS = 5;

/** What the rules below see of an answer without tool calls, and what they may do. */
export interface Answer {
  run: Run;
  reason: StopReason;
  /** The run was asked for structured output (--json-schema). */
  wantsStructuredOutput: boolean;
  /** Adds a user message to the history for the next request. */
  remind(text: string): void;
  /** Runs the Stop (or SubagentStop) hooks. */
  stopHooks(active: boolean): Promise<HookOutcome>;
}

/** One row: undefined when it does not apply, so the next row decides. */
type Rule = (a: Answer) => Step | undefined | Promise<Step | undefined>;

/** In order; the first rule that applies decides. The last always applies. */
export const AFTER_ANSWER: readonly { when: string; rule: Rule }[] = [
  {
    when: 'cut off by the output token limit: ask the model to go on',
    rule: (a) => {
      if (a.reason !== 'max_tokens' || !a.run.mayContinue()) return undefined;
      a.remind(CONTINUE_PROMPT);
      return CONTINUE;
    },
  },
  {
    when: 'structured output asked for and not given: remind, a few times, then give up',
    rule: (a) => {
      if (!a.wantsStructuredOutput || a.run.structuredOutput !== undefined) return undefined;
      if (!a.run.mayRemind(MAX_STRUCTURED_OUTPUT_RETRIES)) return finish('no_structured_output');
      a.remind(STRUCTURED_OUTPUT_REMINDER);
      return CONTINUE;
    },
  },
  {
    // stop_hook_active tells the hook this is a second try.
    when: 'a Stop hook blocks with a reason: back to work with that reason',
    rule: async (a) => {
      const stop = await a.stopHooks(a.run.stopHookRounds > 0);
      if (stop.blockReason === undefined || stop.stop !== undefined || a.run.stopHookRounds >= MAX_STOP_HOOK_ROUNDS) return undefined;
      a.run.stopHookRounds++;
      a.remind(`Stop hook feedback:\n${stop.blockReason}`);
      return CONTINUE;
    },
  },
  {
    // A turn that spent past --max-budget-usd ends the run as over budget, even when it was the last one (as in Claude Code).
    when: 'otherwise the run is done',
    rule: (a) => finish(a.run.meter.exhausted() ? 'budget' : 'end_turn'),
  },
];

export async function afterAnswer(a: Answer): Promise<Step> {
  for (const { rule } of AFTER_ANSWER) {
    const step = await rule(a);
    if (step !== undefined) return step;
  }
  return finish('end_turn');
}
