import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { AgentSession, createSkillTool, type AgentSettings } from '../agent/index.ts';
import { loadConfig, moatPaths, type LoadedConfig } from '../config/index.ts';
import { printRun } from '../print/index.ts';
import { SessionHost } from '../protocol/index.ts';
import { openStore } from '../store/index.ts';
import { builtinTools, parseRuleList, ToolRegistry } from '../tools/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { EXIT, exitCodeForStop } from './exit-codes.ts';
import type { RootOptions } from './program.ts';
import { runInteractive } from './interactive.ts';
import { checkModels, modelRouter } from './model-setup.ts';
import { readPipedStdin } from './read-stdin.ts';
import { definitionRoots, loadSkillsReporting, promptWithSkill } from './skill-command.ts';
import { subagentSetup } from './subagent-setup.ts';
import { attachWasmTools, storeIndex } from './wasm-tools.ts';
import { finishWorktreeRun, startWorktreeRun, worktreeLine } from './worktree-run.ts';
import { err, out } from './write-out.ts';

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

function rules(values: string[], what: string) {
  try {
    return parseRuleList(values);
  } catch (e) {
    throw new MoatError('usage', `${what}: ${errorMessage(e)}`);
  }
}

export function settingsFrom(loaded: LoadedConfig, opts: RootOptions, cwd: string): AgentSettings {
  const c = loaded.config;
  const retryBase = Number(process.env.MOAT_RETRY_BASE_MS);
  return {
    model: c.model,
    ...(c.fallback.length > 0 ? { fallbackModels: c.fallback } : {}),
    maxTurns: c.maxTurns,
    maxBudgetUsd: c.maxBudgetUsd,
    maxTokens: c.maxTokens,
    thinkingBudget: c.thinkingBudget,
    permissionMode: c.permissionMode,
    allow: rules(c.permissions.allow, 'allow rules'),
    deny: rules(c.permissions.deny, 'deny rules'),
    cwd,
    addDirs: c.addDirs,
    projectRoot: loaded.projectRoot,
    home: process.env.HOME || homedir(),
    systemPrompt: opts.systemPrompt,
    appendSystemPrompt: opts.appendSystemPrompt,
    idleTimeoutMs: c.streamIdleTimeoutMs,
    bashTimeoutMs: c.bashTimeoutMs,
    // Test hook: the real backoff base is 1 s; end-to-end failure tests shorten it.
    retryBaseMs: Number.isFinite(retryBase) && retryBase > 0 ? retryBase : 1000,
  };
}

/** `moat [prompt]` and `moat -p [prompt]`: the composition root of a run. */
export async function rootCommand(promptWords: string[], opts: RootOptions): Promise<number> {
  const env = process.env;
  const cwd = resolveCwd(opts.cwd);
  const loaded = loadConfig({
    cwd,
    env,
    flags: {
      model: opts.model,
      fallback: opts.fallbackModel?.split(',').map((m) => m.trim()).filter((m) => m !== ''),
      maxTurns: opts.maxTurns,
      maxBudgetUsd: opts.maxBudgetUsd,
      permissionMode: opts.permissionMode,
      addDirs: opts.addDir?.map((d) => resolve(cwd, d)),
      allowedTools: opts.allowedTools,
      disallowedTools: opts.disallowedTools,
    },
  });
  // Any model: the router reaches each provider; a missing key is one line naming the variable to set.
  const router = modelRouter(loaded, env);
  checkModels(router, settingsFrom(loaded, opts, cwd));
  if (opts.worktree && !opts.print) throw new MoatError('usage', '--worktree works with -p only: moat -p --worktree "task"');
  if (!opts.print) {
    // The TUI loads Ink lazily inside runInteractive, so -p and --version never pay for it.
    return runInteractive({
      loaded,
      settings: settingsFrom(loaded, opts, cwd),
      router,
      prompt: promptWords.join(' ').trim(),
      resume: opts.continue ? 'latest' : opts.resume,
    });
  }

  const piped = await readPipedStdin();
  const typed = [promptWords.join(' ').trim(), piped.trim()].filter((s) => s.length > 0).join('\n\n');
  if (!typed) throw new MoatError('usage', 'no prompt: give it as an argument (moat -p "task") or on stdin');
  // Skills: listed to the model, runnable through the skill tool, and `/name args` expands here.
  const skills = loadSkillsReporting(definitionRoots(cwd, env));
  const prompt = promptWithSkill(typed, skills);
  if (opts.continue && opts.resume) throw new MoatError('usage', '--continue and --resume cannot be used together');

  const settings = settingsFrom(loaded, opts, cwd);
  settings.skills = skills.map((s) => ({ name: s.name, description: s.description, whenToUse: s.whenToUse }));
  const color = opts.color && !env.NO_COLOR && process.stderr.isTTY === true;
  if (settings.permissionMode === 'bypassPermissions') {
    err('moat: WARNING: bypassPermissions is on: every tool call runs without any permission check.\n');
  }

  if (opts.worktree && (opts.continue || opts.resume)) {
    throw new MoatError('usage', '--worktree starts a new session in a new worktree: it cannot be combined with --continue or --resume');
  }
  // -p --worktree: the session works on its own branch; the user's files stay as they are.
  const worktree = opts.worktree ? await startWorktreeRun(cwd, prompt, settings) : undefined;

  const agents = subagentSetup(cwd, env, { maxConcurrent: loaded.config.maxConcurrentAgents, maxDepth: loaded.config.maxAgentDepth });
  const store = openStore(moatPaths(env).dbFile);
  // WebAssembly tools (bundled and drop-in) join the registry as a live source; the watcher stops in finally.
  let wasm: { close(): void } | undefined;
  try {
    const registry = new ToolRegistry([...builtinTools(), createSkillTool(skills)]);
    wasm = await attachWasmTools(registry, {
      env,
      projectRoot: loaded.projectRoot,
      index: storeIndex(store),
      toolLimits: loaded.toolLimits,
      warn: (line) => err(`moat: ${line}\n`),
    });
    const session = AgentSession.open(
      {
        provider: router,
        models: router,
        registry,
        store,
        settings,
        subagents: agents.support,
      },
      { resume: opts.continue ? 'latest' : opts.resume },
    );

    // One AbortSignal from SIGINT/SIGTERM to the HTTP request and the running tools.
    // A second signal exits at once (the finished messages are already saved).
    const controller = new AbortController();
    const onSignal = () => {
      if (controller.signal.aborted) process.exit(EXIT.interrupted);
      controller.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    // -p is a client of the session protocol: one user message, its events, its result.
    const host = new SessionHost(session);
    const finished = await printRun(host.turn(prompt, controller.signal), {
      format: opts.outputFormat,
      verbose: opts.verbose ?? false,
      color,
      apiKeySource: router.providers[router.resolve(settings.model).provider]?.apiKeyEnv ?? 'none',
      out,
      err,
      // Background sub-agents stop with moat; then a --worktree session's work is committed.
      finalize: async (f) => {
        await agents.shutdown();
        return worktree ? { worktree: await finishWorktreeRun(worktree, f.stopReason !== 'end_turn') } : {};
      },
    });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (worktree?.info && opts.outputFormat === 'text') err(worktreeLine(worktree.info));
    return exitCodeForStop(finished.stopReason);
  } finally {
    wasm?.close();
    await agents.shutdown();
    store.close();
  }
}
