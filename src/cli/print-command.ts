/** `moat -p`: one prompt run as a client of the session protocol, its events printed (text, JSON or stream-json). */
import { mcpControls } from './mcp-controls.ts';
import { runInlineCommands, sessionCheck } from './inline-commands.ts';
import pkg from '../../package.json' with { type: 'json' };
import { resolveModel, type AgentSettings } from '../agent/index.ts';
import type { Env, LoadedConfig } from '../config/index.ts';
import { printRun } from '../print/index.ts';
import { compactOp, toSessionEvent, type SessionEvent } from '../protocol/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { agentsFlag } from './agents-json.ts';
import { EXIT, exitCodeForStop } from './exit-codes.ts';
import type { RootOptions } from './program.ts';
import { checkModels } from './model-setup.ts';
import { readPipedStdin } from './read-stdin.ts';
import { definitionRoots, loadSkillsReporting, promptWithSkill } from './skill-setup.ts';
import { openSession } from './open-session.ts';
import { initServers } from './mcp-setup.ts';
import type { McpManager } from '../mcp/index.ts';
import { err, runStdout } from './write-out.ts';
import { gitInfoOf } from './git-prefetch.ts';

/** `moat -p "/mcp__server__prompt args"`: waits for the servers to start, then the prompt's text; a problem is a usage error. */
async function mcpPromptText(mcp: McpManager, loaded: LoadedConfig, command: string, args: string): Promise<string> {
  mcp.startAll();
  await mcp.settled();
  try {
    return await mcpControls(mcp, loaded).queries.mcpPrompt(command, args);
  } catch (e) {
    throw new MoatError('usage', errorMessage(e));
  }
}

export interface PrintCommandInputs {
  promptWords: string[];
  opts: RootOptions;
  loaded: LoadedConfig;
  /** Computed once by rootCommand (settingsFrom). */
  settings: AgentSettings;
  router: ModelRouter;
  env: Env;
  cwd: string;
}

/** The run after rootCommand read the flags and the config. */
export async function printCommand({ promptWords, opts, loaded, settings, router, env, cwd }: PrintCommandInputs): Promise<number> {
  // Git facts for the system prompt: git runs while the rest gets ready (a --worktree run reads its worktree's).
  const git = opts.worktree ? undefined : gitInfoOf(cwd);
  const piped = await readPipedStdin();
  const typed = [promptWords.join(' ').trim(), piped.trim()].filter((s) => s.length > 0).join('\n\n');
  if (!typed) throw new MoatError('usage', 'no prompt: give it as an argument (moat -p "task") or on stdin');
  // Skills: listed to the model, runnable through the skill tool, and `/name args` expands here.
  const skills = loadSkillsReporting(definitionRoots(cwd, env, settings.settingSources));
  // `/mcp__server__prompt args` is an MCP server's prompt, fetched once the servers are up; anything else may be a skill.
  const mcpPromptCall = /^\/(mcp__\S+)([\s\S]*)$/.exec(typed.trim());
  // `/compact [instructions]` is a command for the session (as in Claude Code), not a prompt or a skill.
  const compact = compactOp(typed);
  const invoked = mcpPromptCall || compact ? { prompt: typed } : promptWithSkill(typed, skills);

  // A custom command's `model` runs this prompt on that model (unless --model chose one).
  if (invoked.skill?.model !== undefined && opts.model === undefined) {
    settings.model = resolveModel(settings.model, invoked.skill.model);
    checkModels(router, settings);
  }
  settings.skills = skills.map((s) => ({ name: s.name, description: s.description, whenToUse: s.whenToUse }));
  // Asked on the first colored line, not imported at the top: node:tty (and the node:net it loads) imported statically cost -p's first byte
  // +2.0 ms wall, +5.5 ms CPU, +1.9 MB (scripts/bench/startup.ts, 30 interleaved runs); process.stderr.isTTY would build Node's stream (~14 ms).
  const color = () => opts.color && !env.NO_COLOR && (import.meta.require('node:tty') as typeof import('node:tty')).isatty(2);
  if (settings.permissionMode === 'bypassPermissions') {
    err('moat: WARNING: bypassPermissions is on: every tool call runs without any permission check.\n');
  }

  if (opts.worktree && (opts.continue || opts.resume)) {
    throw new MoatError('usage', '--worktree starts a new session in a new worktree: it cannot be combined with --continue or --resume');
  }
  // -p --worktree: the session works on its own branch; the user's files stay as they are. Imported here: statically, with
  // mcp-setup's mcp-auth.ts, -p's first byte came 4.6 ms later, 4.3 ms more CPU (scripts/bench/startup.ts, 20 interleaved runs).
  const worktreeRun = opts.worktree ? await import('./worktree-run.ts') : undefined;
  const worktree = worktreeRun ? await worktreeRun.startWorktreeRun(cwd, invoked.prompt, settings) : undefined;

  const opened = await openSession(
    {
      loaded,
      settings,
      router,
      env,
      skills,
      tools: opts.tools,
      extraAgents: agentsFlag(opts.agents),
      persist: opts.sessionPersistence,
      mcp: { configs: opts.mcpConfig ?? [], strict: opts.strictMcpConfig ?? false },
      warn: (line) => err(`moat: ${line}\n`),
    },
    {
      resume: opts.continue ? 'latest' : opts.resume,
      ...(opts.forkSession ? { fork: true } : {}),
      ...(opts.sessionId === undefined ? {} : { sessionId: opts.sessionId }),
      ...(git === undefined ? {} : { git }),
    },
  );
  const { assembly, host } = opened;
  let ended = false;
  try {
    // One AbortSignal from SIGINT/SIGTERM to the HTTP request and the running tools.
    // A second signal exits at once (the finished messages are already saved).
    const controller = new AbortController();
    const onSignal = () => {
      if (controller.signal.aborted) process.exit(EXIT.interrupted);
      controller.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // A reader that goes away (`| head -1`) interrupts the run as Ctrl-C does, and the run ends with 0.
    const stdout = runStdout(() => controller.abort());

    // -p is a client of the session protocol: one user message, its events, its result.
    // A custom command's !`cmd` lines run now, judged like Bash calls, and their output goes into the prompt.
    // They may write: checkpointed with the message they go into, so a rewind to it undoes them.
    const early: SessionEvent[] = [];
    const expand = async (): Promise<string> => {
      const { skill } = invoked;
      if (skill === undefined) return invoked.prompt;
      // Decided as the model's Bash call is: in -p what would need a question is refused with the reason, and the
      // permission events go out with the run's (after its start, so the result's permission_denials list them).
      const check = sessionCheck(opened.session, controller.signal, (e) => early.push(toSessionEvent(e)));
      const run = () => runInlineCommands(invoked.prompt, skill, opened.session.currentSettings(), controller.signal, check);
      return assembly.checkpoints?.around ? assembly.checkpoints.around(opened.session.id, run, (line) => err(`moat: ${line}\n`)) : run();
    };
    const sent = mcpPromptCall ? await mcpPromptText(assembly.mcp, loaded, mcpPromptCall[1] ?? '', (mcpPromptCall[2] ?? '').trim()) : await expand();
    const events = afterStart(compact ? host.compact(compact.instructions, controller.signal) : host.turn(sent, controller.signal), early);
    const finished = await printRun(events, {
      format: opts.outputFormat,
      verbose: opts.verbose ?? false,
      debug: opts.debug !== undefined && opts.debug !== false,
      color,
      init: {
        apiKeySource: assembly.apiKeySource(settings.model),
        version: pkg.version,
        slashCommands: skills.map((s) => s.name),
        skills: skills.map((s) => s.name),
        agents: assembly.agentNames,
        mcpServers: initServers(assembly.mcp.status()),
      },
      output: { includePartialMessages: opts.includePartialMessages ?? false },
      out: stdout.write,
      err,
      // Background sub-agents stop with moat; then a --worktree session's work is committed.
      finalize: async (f) => {
        await assembly.stopAgents();
        return worktreeRun && worktree ? { worktree: await worktreeRun.finishWorktreeRun(worktree, f.stopReason !== 'end_turn') } : {};
      },
    });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    ended = true;
    for (const f of await opened.close('other')) err(`moat: a SessionEnd hook failed (ignored): ${f}\n`);
    if (worktreeRun && worktree?.info && opts.outputFormat === 'text') err(worktreeRun.worktreeLine(worktree.info));
    return stdout.closed ? EXIT.ok : exitCodeForStop(finished.stopReason);
  } finally {
    if (!ended) await assembly.close();
  }
}

/** A run's events with `early` ones (a custom command's !`cmd` permission events) put right after the run's start. */
async function* afterStart(events: AsyncIterable<SessionEvent>, early: readonly SessionEvent[]): AsyncIterable<SessionEvent> {
  let started = early.length === 0;
  for await (const e of events) {
    yield e;
    if (!started && e.type === 'session_started') {
      started = true;
      yield* early;
    }
  }
}
