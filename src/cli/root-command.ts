/** `moat [prompt]` and `moat -p`: the composition root of a run (the TUI, print mode, stream-json input). */
// First: the schemas the modules below build are built without zod's JIT (see zod-setup.ts).
import './zod-setup.ts';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { mcpControls } from './mcp-controls.ts';
import { trackedDenyNotice } from './tracked-deny-notice.ts';
import { runInlineCommands, sessionCheck } from './inline-commands.ts';
import pkg from '../../package.json' with { type: 'json' };
import { resolveModel } from '../agent/index.ts';
import { loadConfig, type LoadedConfig } from '../config/index.ts';
import { printRun } from '../print/index.ts';
import { compactOp, toSessionEvent, type SessionEvent } from '../protocol/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { agentsFlag } from './agents-json.ts';
import { EXIT, exitCodeForStop } from './exit-codes.ts';
import type { RootOptions } from './program.ts';
import { checkModels, endpointNotice, modelRouter } from './model-setup.ts';
import { readPipedStdin } from './read-stdin.ts';
import { definitionRoots, loadSkillsReporting, promptWithSkill } from './skill-setup.ts';
import { openSession } from './open-session.ts';
import { initServers } from './mcp-setup.ts';
import type { McpManager } from '../mcp/index.ts';
import { flagSettingsConfig, settingsFlag, settingSources } from './settings-flag.ts';
import { outputSchemaFlag, settingsFrom } from './settings-from.ts';
import { sandboxNotice } from './os-sandbox-setup.ts';
import { err, runStdout } from './write-out.ts';
import { ignoredFlagNotes } from './sdk-flags.ts';
import { gitInfoOf } from './git-prefetch.ts';
import { precompileYoga } from './yoga-precompile.ts';

/** `moat -p "/mcp__server__prompt args"`: waits for the servers to start, then the prompt's text; a problem is a usage error. */
async function mcpPromptText(mcp: McpManager, loaded: LoadedConfig, command: string, args: string): Promise<string> {
  mcp.startAll();
  await mcp.settled();
  try {
    return await mcpControls(mcp, loaded).mcpPrompt(command, args);
  } catch (e) {
    throw new MoatError('usage', errorMessage(e));
  }
}

function resolveCwd(dir: string | undefined): string {
  const cwd = resolve(dir ?? process.cwd());
  let ok = false;
  try {
    ok = statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new MoatError('usage', `--cwd ${dir}: not a folder`);
  return cwd;
}

/** Two optional lists as one; undefined when both are. */
function joined(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  return a === undefined && b === undefined ? undefined : [...(a ?? []), ...(b ?? [])];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Flag combinations that cannot work, each a one-line usage error. */
function checkFlags(opts: RootOptions): void {
  if (opts.continue && opts.resume) throw new MoatError('usage', '--continue and --resume cannot be used together');
  if (opts.sessionId !== undefined && !UUID.test(opts.sessionId)) throw new MoatError('usage', `--session-id must be a UUID, got "${opts.sessionId}"`);
  if (opts.forkSession && !opts.continue && !opts.resume) throw new MoatError('usage', '--fork-session goes with --resume or --continue');
  if (opts.sessionId !== undefined && (opts.continue || opts.resume) && !opts.forkSession) {
    throw new MoatError('usage', '--session-id names a new session: with --resume or --continue it needs --fork-session');
  }
  if (opts.permissionPromptTool !== undefined && opts.permissionPromptTool !== 'stdio') {
    throw new MoatError('usage', `--permission-prompt-tool ${opts.permissionPromptTool}: only "stdio" is supported (the program on stdin/stdout answers)`);
  }
  if (opts.permissionPromptTool === 'stdio' && opts.inputFormat !== 'stream-json') {
    throw new MoatError('usage', '--permission-prompt-tool stdio needs --input-format stream-json (the answers come on stdin)');
  }
  if (opts.includePartialMessages && opts.outputFormat !== 'stream-json') throw new MoatError('usage', '--include-partial-messages needs --output-format stream-json');
  if (opts.inputFormat === 'stream-json' && opts.outputFormat !== 'stream-json') throw new MoatError('usage', '--input-format stream-json needs --output-format stream-json');
}

/** `moat [prompt]` and `moat -p [prompt]`: the composition root of a run. */
export async function rootCommand(promptWords: string[], opts: RootOptions): Promise<number> {
  const env = process.env;
  const cwd = resolveCwd(opts.cwd);
  // SDK options moat has nothing behind: accepted, each said once (sdk-flags.ts).
  for (const note of ignoredFlagNotes(opts as unknown as Record<string, unknown>)) err(`moat: ${note}\n`);
  if (opts.permissionMode === 'auto') err("moat: --permission-mode auto runs as default: read-only commands run in the sandbox without asking, the rest asks\n");
  // Claude Code's --settings: its rules, model, mode and folders join the flags; its env reaches the tools.
  const flagSettings = settingsFlag(opts.settings, cwd);
  const sources = settingSources(opts.settingSources);
  for (const [k, v] of Object.entries(flagSettings.env ?? {})) env[k] = v;
  const loaded = loadConfig({
    cwd,
    env,
    ...(sources === undefined ? {} : { settingSources: sources }),
    flags: {
      model: opts.model ?? flagSettings.model,
      thinkingBudget: opts.maxThinkingTokens,
      fallback: opts.fallbackModel?.split(',').map((m) => m.trim()).filter((m) => m !== ''),
      maxTurns: opts.maxTurns,
      maxBudgetUsd: opts.maxBudgetUsd,
      permissionMode: opts.dangerouslySkipPermissions ? 'bypassPermissions' : opts.permissionMode === 'auto' ? 'default' : (opts.permissionMode ?? flagSettings.permissions?.defaultMode),
      addDirs: joined(opts.addDir, flagSettings.permissions?.additionalDirectories)?.map((d) => resolve(cwd, d)),
      allowedTools: joined(opts.allowedTools, flagSettings.permissions?.allow),
      disallowedTools: joined(opts.disallowedTools, flagSettings.permissions?.deny),
      ...flagSettingsConfig(flagSettings),
    },
  });
  // Any model: the router reaches each provider; a missing key is one line naming the variable to set.
  const router = modelRouter(loaded, env);
  // Settings files' env reaches moat and every process it starts (a project's only once trusted); flags' env wins.
  for (const [k, v] of Object.entries(loaded.env)) if (flagSettings.env?.[k] === undefined) env[k] = v;
  // The session's settings, computed once for whichever front end runs.
  const settings = settingsFrom(loaded, opts, cwd);
  // A schema zod cannot read is refused here, before anything runs.
  if (opts.jsonSchema !== undefined) settings.outputSchema = await outputSchemaFlag(opts.jsonSchema, '--json-schema');
  checkModels(router, settings);
  const notice = sandboxNotice(settings.processSandbox);
  if (notice !== undefined) err(`moat: ${notice}\n`);
  for (const line of loaded.untrusted) err(`moat: ${line} ignored until you trust this folder (moat trust)\n`);
  const endpoint = endpointNotice(loaded, router, settings.model, cwd, env);
  if (endpoint !== undefined) err(`moat: ${endpoint}\n`);
  // Read deny rules hide files, not their committed copies: said once, at start (git runs only when there are such rules).
  if (settings.deny.some((r) => r.type === 'path' && r.ruleName === 'Read')) {
    const tracked = await trackedDenyNotice(settings);
    if (tracked !== undefined) err(`moat: ${tracked}\n`);
  }
  if (opts.worktree && !opts.print) throw new MoatError('usage', '--worktree works with -p only: moat -p --worktree "task"');
  checkFlags(opts);
  // Programs and the Claude Agent SDK: JSON lines on stdin, one turn per user message (implies print mode).
  // Loaded only here: -p and the TUI never evaluate the stream-json client and its schemas.
  if (opts.inputFormat === 'stream-json') return (await import('./stream-json-command.ts')).streamJsonCommand({ loaded, opts, settings, router, env });
  if (!opts.print) {
    // yoga's WebAssembly compiles on a helper thread while the rest of the set-up runs.
    precompileYoga();
    // The TUI's modules (and Ink, inside runInteractive) load only here: -p never evaluates them.
    const { runInteractive } = await import('./interactive.ts');
    return runInteractive({
      loaded,
      settings,
      router,
      prompt: promptWords.join(' ').trim(),
      resume: opts.continue ? 'latest' : opts.resume,
      mcp: { configs: opts.mcpConfig ?? [], strict: opts.strictMcpConfig ?? false },
    });
  }

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
