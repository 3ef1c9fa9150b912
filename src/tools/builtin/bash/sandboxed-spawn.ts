/**
 * How a bash call is started: through the OS sandbox at the grants the
 * permission gate chose, or — with no sandbox configured — as moat runs, but
 * never with the provider keys or a BASH_ENV/ENV start-up file. And what the
 * sandbox refused, worded for the model: what was blocked and how to ask.
 */
import { prepareSandboxed, runSandboxed, SandboxUnavailableError, type PrepareSandboxedOptions, type RunSandboxedOptions, type RunSandboxedResult, type SandboxedCommand, type SandboxViolation } from '../../../sandbox/index.ts';
import { existsSync } from 'node:fs';
import { processScope } from '../../process-grants.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { MAX_BASH_TIMEOUT_MS } from './schema.ts';
import { findBash, INSTALL_GIT_BASH } from './find-bash.ts';

export type BashRun = Pick<RunSandboxedOptions, 'timeoutMs' | 'killGraceMs' | 'onStdout' | 'onStderr'>;

interface BashPlan {
  argv: string[];
  settings: ToolContext['processSandbox'];
  level: 'off' | NonNullable<ToolContext['sandbox']>;
  options: PrepareSandboxedOptions;
}

/** bash, its environment and the level the permission gate chose; refusals to run are ToolErrors worded for the model. */
function planBash(script: string, ctx: ToolContext): BashPlan {
  const bash = findBash({ platform: process.platform, env: process.env, which: (name) => Bun.which(name) ?? undefined, exists: existsSync });
  if (bash === undefined) throw new ToolError(`Cannot run the command: ${INSTALL_GIT_BASH}. Tell the user.`);
  const env = { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
  const settings = ctx.processSandbox;
  const level = settings === undefined ? 'off' : (ctx.sandbox ?? 'read-only');
  // An approval cannot lift what the user's config requires: "required" means no command runs without the sandbox.
  if (level === 'off' && settings?.mode === 'required') {
    throw new ToolError('Cannot run the command outside the sandbox: [sandbox] mode = "required" in the user config, so sandbox: "off" is refused even when approved. Run it inside the sandbox (leave out sandbox, or use "workspace-write"), or tell the user what it needs.');
  }
  const options: PrepareSandboxedOptions = {
    cwd: ctx.cwd,
    env,
    ...processScope(settings, ctx.roots, ctx.cwd),
    // It was allowed without a question because the sandbox would hold it: without one, it must not run.
    requireSandbox: settings?.active === true,
  };
  return { argv: [bash, '-c', script], settings, level, options };
}

/** The sandbox's and the system's refusals to start, worded for the model. */
function startError(e: unknown, plan: BashPlan, cwd: string): unknown {
  if (e instanceof SandboxUnavailableError) {
    return new ToolError(`Cannot run the command: ${e.message}.${plan.settings?.mode === 'required' ? '' : ' Tell the user; sandbox: "off" would run it unsandboxed after asking.'}`);
  }
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new ToolError(`Cannot run the command: the working folder ${cwd} or bash itself was not found.`);
  return e;
}

/** Runs `script` with bash at the level the permission gate chose; refusals to run are ToolErrors worded for the model. */
export async function runBash(script: string, ctx: ToolContext, run: BashRun): Promise<RunSandboxedResult> {
  const plan = planBash(script, ctx);
  try {
    return await runSandboxed(plan.argv, plan.settings, plan.level, { ...plan.options, signal: ctx.signal, ...run });
  } catch (e) {
    throw startError(e, plan, ctx.cwd);
  }
}

/**
 * The same preparation as runBash — same grants, level and refusals — for a caller that starts the prepared
 * command itself (an editor's terminal); it must call `finish()` when the command is over.
 */
export async function prepareBash(script: string, ctx: ToolContext): Promise<SandboxedCommand> {
  const plan = planBash(script, ctx);
  try {
    return await prepareSandboxed(plan.argv, plan.settings, plan.level, plan.options);
  } catch (e) {
    throw startError(e, plan, ctx.cwd);
  }
}

/** One line per refusal, each saying how to get what was refused. */
export function describeViolations(violations: readonly SandboxViolation[], ctx: ToolContext): string[] {
  const level = ctx.sandbox ?? 'read-only';
  const settings = ctx.processSandbox;
  return violations.map((v) => {
    if (v.kind === 'limit') return `${v.message}.`;
    if (v.kind === 'write') {
      const inRoots = ctx.roots.some((r) => v.target === r || v.target.startsWith(`${r}/`));
      if (level === 'read-only' && inRoots) {
        return `${v.message}: the sandbox is read-only for this command; call Bash again with sandbox: "workspace-write" to ask the user for write access.`;
      }
      if (inRoots) return `${v.message}: it is protected inside the working folder (git hooks and config, project settings) or denied by a rule; do not work around it.`;
      return `${v.message}: it is outside the folders the sandbox may write (${[...ctx.roots, ...(settings?.allowWrite ?? [])].join(', ')}, and the temp folder); ask the user to add it with --add-dir or [sandbox.filesystem] allow_write.`;
    }
    if (level === 'read-only') return `${v.message.replace(/: .*$/, '')}: the read-only sandbox has no network; call Bash again with sandbox: "workspace-write" to use the hosts in [sandbox.network] allow.`;
    if (/not in \[sandbox\.network\] allow/.test(v.message)) return `${v.message}; ask the user to add the host to [sandbox.network] allow if it is needed.`;
    return `${v.message}.`;
  });
}

/**
 * Without granted hosts a sandboxed command has no network at all (a fresh
 * namespace, no proxy), so nothing can report which connection failed: the
 * runtime reports refusals only through its proxy, and starting one for every
 * command would cost more than the sandbox itself. So a command that failed
 * there is told that it had no network, once, and how to get it.
 */
export function noNetworkNote(ctx: ToolContext): string | undefined {
  const settings = ctx.processSandbox;
  if (settings === undefined || ctx.sandbox === 'off') return undefined;
  const hosts = settings.allowNetwork;
  if ((ctx.sandbox ?? 'read-only') === 'read-only' && hosts.length > 0) {
    return `It ran in the read-only sandbox, which has no network: if it failed because it could not connect, call Bash again with sandbox: "workspace-write" to reach the hosts in [sandbox.network] allow (${hosts.join(', ')}).`;
  }
  if (hosts.length > 0) return undefined;
  return 'It ran in the sandbox with no network (no host is in [sandbox.network] allow): if it failed because it could not connect, that is why; ask the user to add the host to [sandbox.network] allow in ~/.config/moat/config.toml (or a WebFetch(domain:…) allow rule) rather than working around it.';
}

/** How a Bash run ended, wherever it ran (moat's own process or an editor's terminal). */
export interface BashEnd {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  sandboxed: boolean;
  violations: readonly SandboxViolation[];
  /** The sandbox launcher failed before the command ran: it did not fail for want of network. */
  launcherFailed?: boolean;
}

/** The model's text and the tool card of a finished Bash run: its output, how it ended, what the sandbox refused. */
export function bashResult(o: { command: string; output: string; tail: string; durationMs: number; timeoutMs: number; end: BashEnd }, ctx: ToolContext): ToolResult {
  const { end } = o;
  const refused = describeViolations(end.violations, ctx);
  let status = '';
  if (end.timedOut) status = `Command timed out after ${o.timeoutMs / 1000}s and was stopped. Raise timeout (max ${MAX_BASH_TIMEOUT_MS}) if it needs longer.`;
  else if (end.aborted) status = 'Command aborted by the user.';
  else if (end.exitCode === null) status = `Command killed by ${end.signal ?? 'a signal'}.`;
  else if (end.exitCode !== 0) status = `Exit code ${end.exitCode}`;
  const sandboxNote = refused.length > 0 ? `\n\nRefused by the sandbox:\n${refused.map((r) => `- ${r}`).join('\n')}` : '';
  const offline = end.sandboxed && end.launcherFailed !== true && end.exitCode !== null && end.exitCode !== 0 && !end.violations.some((v) => v.kind === 'network') ? noNetworkNote(ctx) : undefined;
  const grant = end.sandboxed ? (ctx.sandbox ?? 'read-only') : ctx.processSandbox === undefined ? undefined : 'off';
  return {
    content: `${status === '' ? o.output : `${o.output}\n\n${status}`}${sandboxNote}${offline === undefined ? '' : `\n\n${offline}`}`,
    isError: status !== '',
    display: {
      type: 'command',
      command: o.command,
      exitCode: end.exitCode,
      durationMs: o.durationMs,
      output: o.tail,
      ...(end.timedOut ? { timedOut: true } : {}),
      ...(grant === undefined ? {} : { sandbox: grant }),
      ...(refused.length > 0 ? { violations: end.violations.map((v) => v.message) } : {}),
    },
  };
}
