/**
 * Flags the Claude Agent SDK (and scripts written for `claude -p`) pass that
 * moat has no feature behind, or a nearer one: each is accepted, mapped to
 * moat's nearest behaviour where it has one, and otherwise reported once as
 * having no effect. None fails the run: a program that sets an SDK option
 * must not exit 2 before anything runs.
 */
import type { RootOptionSpec } from './root-options.ts';

/** A flag moat accepts but does nothing with, and why. */
interface IgnoredFlag extends RootOptionSpec {
  /** The option's key in commander's parsed options. */
  key: string;
  /** Why it has no effect, said once on stderr. */
  why: string;
}

const ignored = (flags: string, key: string, why: string): IgnoredFlag => ({ flags, key, why, description: `accepted for Claude Code compatibility: ${why}`, hidden: true });

/** Accepted and reported once: moat has nothing behind them. */
export const IGNORED_FLAGS: readonly IgnoredFlag[] = [
  ignored('--thinking-display <display>', 'thinkingDisplay', 'moat streams thinking as the model sends it'),
  ignored('--effort <level>', 'effort', 'moat has no effort levels; --max-thinking-tokens sets how much the model thinks'),
  ignored('--betas <betas>', 'betas', 'moat sends no beta headers of its own choosing'),
  ignored('--agent <name>', 'agent', 'the main thread runs as moat; agent definitions run as sub-agents through the Task tool'),
  ignored('--plugin-dir <dir>', 'pluginDir', 'moat has no plugins; skills, commands and agents load from .claude/ and .moat/'),
  ignored('--plugin-dir-no-mcp <dir>', 'pluginDirNoMcp', 'moat has no plugins; skills, commands and agents load from .claude/ and .moat/'),
  ignored('--include-hook-events', 'includeHookEvents', 'moat does not stream hook events'),
  ignored('--task-budget <tokens>', 'taskBudget', 'moat budgets in dollars (--max-budget-usd) and turns (--max-turns)'),
  ignored('--resume-session-at <message-id>', 'resumeSessionAt', 'moat resumes a session at its end'),
  ignored('--permission-prompts <kinds>', 'permissionPrompts', 'every permission question goes to the program with --permission-prompt-tool stdio'),
  ignored('--project-config-root <dir>', 'projectConfigRoot', "moat finds the project's config from the working folder"),
  ignored('--session-mirror', 'sessionMirror', 'moat keeps sessions in its own database'),
  ignored('--channels <channel>', 'channels', 'moat has no channels'),
  ignored('--debug-to-stderr', 'debugToStderr', 'moat writes --debug lines to stderr already'),
];

/** Accepted, with moat's nearest behaviour. */
export const MAPPED_FLAGS: readonly RootOptionSpec[] = [
  {
    flags: '--thinking <mode>',
    description: 'adaptive or enabled: think with the configured budget (--max-thinking-tokens); disabled: do not think',
    choices: ['adaptive', 'enabled', 'disabled'],
  },
  { flags: '--debug-file <file>', description: 'debug lines (as --debug) appended to this file instead of stderr' },
  { flags: '--await-initialize', description: 'with stream-json input: wait for the program\'s initialize request before the first turn (moat always does)', hidden: true },
];

/** The one line per ignored flag a command line gave, in the order above. */
export function ignoredFlagNotes(opts: Readonly<Record<string, unknown>>): string[] {
  return IGNORED_FLAGS.filter((f) => opts[f.key] !== undefined).map((f) => `${f.flags.split(' ')[0]} has no effect: ${f.why}`);
}
