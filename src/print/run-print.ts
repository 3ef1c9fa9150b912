/** `-p`: one run's events written as text, json or stream-json. */
import type { SessionEvent } from '../protocol/index.ts';
import type { OutputLine, WorktreeInfo } from './schema.ts';
import { OutputMapper, type InitInfo, type OutputOptions } from './to-output.ts';
import { makeColors, progressLine } from './progress.ts';
import { SandboxRefusalLines } from './sandbox-refusals.ts';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface PrintOptions {
  format: OutputFormat;
  /** text: progress on stderr; json: the whole array of lines instead of the result alone. */
  verbose: boolean;
  /** --debug: progress lines on stderr whatever the format. */
  debug?: boolean;
  /** Colored stderr lines; a function is asked on the first colored line. */
  color: boolean | (() => boolean);
  init: InitInfo;
  output?: OutputOptions;
  out: (s: string) => void;
  err: (s: string) => void;
  /**
   * Runs after the agent finishes and before the result is printed (stopping
   * background sub-agents, committing a `--worktree` session); what it returns
   * goes into the result line.
   */
  finalize?: (finished: RunFinished) => Promise<{ worktree?: WorktreeInfo }>;
}

export type RunFinished = Extract<SessionEvent, { type: 'run_finished' }>;

/**
 * Drives one `-p` run: consumes the agent's events and writes the chosen
 * format. Returns the final event; the CLI maps its stop reason to an exit code.
 */
export async function printRun(events: AsyncIterable<SessionEvent>, opts: PrintOptions): Promise<RunFinished> {
  const resultOnly = opts.format === 'json' && !opts.verbose;
  const mapper = opts.format === 'text' ? undefined : new OutputMapper(opts.init, { includePartialMessages: false, ...opts.output, resultOnly });
  const colors = makeColors(opts.color);
  // json --verbose: every line, written as one array at the end (Claude Code's shape).
  const all: OutputLine[] = [];
  let finished: RunFinished | undefined;
  const refusals = new SandboxRefusalLines();
  for await (const e of events) {
    const extra = e.type === 'run_finished' && opts.finalize ? await opts.finalize(e) : {};
    const lines = mapper === undefined ? [] : e.type === 'run_finished' ? [mapper.result(e, extra.worktree)] : mapper.map(e);
    if (opts.format === 'stream-json') for (const line of lines) opts.out(`${JSON.stringify(line)}\n`);
    if (opts.format === 'json' && opts.verbose) all.push(...lines);
    if ((opts.format === 'text' && opts.verbose) || opts.debug) {
      const p = progressLine(e, colors);
      if (p) opts.err(`${p}\n`);
    } else for (const line of refusals.of(e)) opts.err(`${colors.yellow(line)}\n`);
    if (e.type === 'run_finished') {
      finished = e;
      if (opts.format === 'json') opts.out(`${JSON.stringify(opts.verbose ? all : lines[0])}\n`);
      if (opts.format === 'text') {
        // A model request that kept failing is the run's answer, on stdout, as in Claude Code: a script capturing stdout sees why.
        if (e.stopReason === 'error' && e.requestFailed === true) opts.out(`${stopMessage(e)}\n`);
        else {
          if (e.result) opts.out(e.result.endsWith('\n') ? e.result : `${e.result}\n`);
          if (e.stopReason !== 'end_turn') opts.err(`${colors.red(`moat: ${stopMessage(e)}`)}\n`);
        }
      }
    }
  }
  if (!finished) throw new Error('the agent ended without a result');
  return finished;
}

export function stopMessage(e: RunFinished): string {
  switch (e.stopReason) {
    case 'end_turn':
      return 'done';
    case 'max_turns':
      return `stopped after ${e.turns} turns (--max-turns); continue with moat -p -c`;
    case 'budget':
      return `stopped at the budget: $${e.costUsd.toFixed(4)} spent (--max-budget-usd)`;
    case 'aborted':
      return 'interrupted; the session was saved (continue with moat -c)';
    case 'error':
      return e.error ?? 'error';
    case 'no_structured_output':
      return `no answer matching --json-schema after ${e.turns} turns`;
  }
}
