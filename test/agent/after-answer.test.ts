/** The table of what happens after an answer without tool calls: which row decides, in which order, and what it leaves in the history. */
import { describe, expect, test } from 'bun:test';
import { afterAnswer, AFTER_ANSWER, type Answer } from '../../src/agent/after-answer.ts';
import { CostMeter } from '../../src/agent/cost-meter.ts';
import { Run } from '../../src/agent/run.ts';
import { CONTINUE_PROMPT } from '../../src/agent/settings.ts';
import { MAX_STRUCTURED_OUTPUT_RETRIES, STRUCTURED_OUTPUT_REMINDER } from '../../src/agent/structured-output.ts';
import type { HookOutcome } from '../../src/agent/hooks.ts';
import type { StopReason } from '../../src/providers/index.ts';

function answer(o: { reason?: StopReason; wantsStructuredOutput?: boolean; hook?: Partial<HookOutcome>; limitUsd?: number } = {}) {
  const run = new Run({ emit: () => {}, limitUsd: o.limitUsd, parentMeter: new CostMeter(), turnBase: 0, models: { model: 'claude-sonnet-4-5' } });
  const reminders: string[] = [];
  const hookCalls: boolean[] = [];
  const a: Answer = {
    run,
    reason: o.reason ?? 'end_turn',
    wantsStructuredOutput: o.wantsStructuredOutput ?? false,
    remind: (text) => reminders.push(text),
    stopHooks: (active) => {
      hookCalls.push(active);
      const outcome: HookOutcome = { context: [], systemMessages: [], output: [], failures: [], refused: [], ...o.hook };
      return Promise.resolve(outcome);
    },
  };
  return { a, run, reminders, hookCalls };
}

describe('after an answer without tool calls', () => {
  test('the rows, in order', () => {
    expect(AFTER_ANSWER.map((r) => r.when)).toEqual([
      'cut off by the output token limit: ask the model to go on',
      'structured output asked for and not given: remind, a few times, then give up',
      'a Stop hook blocks with a reason: back to work with that reason',
      'otherwise the run is done',
    ]);
  });

  test('a plain end: the Stop hook runs once (not active), and the run ends', async () => {
    const { a, reminders, hookCalls } = answer();
    expect(await afterAnswer(a)).toEqual({ kind: 'finish', reason: 'end_turn' });
    expect(reminders).toEqual([]);
    expect(hookCalls).toEqual([false]);
  });

  test('max_tokens goes on before anything else, even when structured output is missing; no hook runs', async () => {
    const { a, reminders, hookCalls } = answer({ reason: 'max_tokens', wantsStructuredOutput: true });
    expect(await afterAnswer(a)).toEqual({ kind: 'continue' });
    expect(reminders).toEqual([CONTINUE_PROMPT]);
    expect(hookCalls).toEqual([]);
  });

  test('missing structured output: reminded a few times, then the run ends without it', async () => {
    const { a, reminders } = answer({ wantsStructuredOutput: true });
    for (let i = 0; i < MAX_STRUCTURED_OUTPUT_RETRIES; i++) expect(await afterAnswer(a)).toEqual({ kind: 'continue' });
    expect(await afterAnswer(a)).toEqual({ kind: 'finish', reason: 'no_structured_output' });
    expect(reminders).toEqual(Array.from({ length: MAX_STRUCTURED_OUTPUT_RETRIES }, () => STRUCTURED_OUTPUT_REMINDER));
  });

  test('a blocking Stop hook sends the model back with its reason, as a second try the next time, at most five rounds', async () => {
    const { a, run, reminders, hookCalls } = answer({ hook: { blockReason: 'tests fail' } });
    for (let i = 0; i < 5; i++) expect(await afterAnswer(a)).toEqual({ kind: 'continue' });
    expect(await afterAnswer(a)).toEqual({ kind: 'finish', reason: 'end_turn' });
    expect(run.stopHookRounds).toBe(5);
    expect(reminders).toEqual(Array.from({ length: 5 }, () => 'Stop hook feedback:\ntests fail'));
    expect(hookCalls).toEqual([false, true, true, true, true, true]);
  });

  test('a hook that blocks but also says stop does not send the model back', async () => {
    const { a } = answer({ hook: { blockReason: 'x', stop: 'enough' } });
    expect(await afterAnswer(a)).toEqual({ kind: 'finish', reason: 'end_turn' });
  });
});
