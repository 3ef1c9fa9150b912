/**
 * `moat` without -p: opens the store, builds the controller and hands the
 * terminal to the interactive UI. The UI (Ink + React) is imported lazily, so
 * `--version`, `-p` and the `sessions` commands never load it.
 */
import { compositionOptions } from './composition.ts';
import { join } from 'node:path';
import { createSkillTool, type AgentSettings } from '../agent/index.ts';
import { moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import { openStore } from '../store/index.ts';
import { builtinTools, ToolRegistry } from '../tools/index.ts';
import { MoatError } from '../util/index.ts';
import { definitionRoots, loadSkillsReporting } from './skill-command.ts';
import { subagentSetup } from './subagent-setup.ts';
import { createTuiController } from './tui-controller.ts';
import { attachWasmTools, storeIndex } from './wasm-tools.ts';
import { attachMcp, type McpFlags } from './mcp-setup.ts';
import type { McpManager } from '../mcp/index.ts';
import { scheduleTool } from '../cron/index.ts';

export interface InteractiveOptions {
  loaded: LoadedConfig;
  settings: AgentSettings;
  /** Reaches every provider; the TUI's /model switches among them. */
  router: ModelRouter;
  /** `moat "task"`: sent as the first prompt. */
  prompt?: string;
  /** A session id (or prefix), or 'latest' for --continue. */
  resume?: string;
  env?: Env;
  /** `--mcp-config` / `--strict-mcp-config`. */
  mcp?: McpFlags;
}

export async function runInteractive(o: InteractiveOptions): Promise<number> {
  const env = o.env ?? process.env;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new MoatError('usage', 'the interactive UI needs a terminal: use moat -p "task" in scripts and pipes');
  }
  const paths = moatPaths(env);
  // Skills as in -p (root-command.ts): listed to the model, runnable through the skill tool, and `/name args`
  // in the prompt runs one. A bad SKILL.md is a warning line, printed before the UI takes the terminal.
  const skills = loadSkillsReporting(definitionRoots(o.settings.cwd, env));
  o.settings.skills = skills.map((s) => ({ name: s.name, description: s.description, whenToUse: s.whenToUse }));
  // Sub-agents as in -p (root-command.ts): one manager for the process, the config's limits; a bad agent
  // definition is a warning line before the UI starts. The controller's shutdown stops them on every exit path.
  const agents = subagentSetup(o.settings.cwd, env, { maxConcurrent: o.loaded.config.maxConcurrentAgents, maxDepth: o.loaded.config.maxAgentDepth });
  const store = openStore(paths.dbFile);
  let controller;
  // WebAssembly tools: warnings print before the UI takes the terminal; later ones show in `moat tool list`.
  let uiStarted = false;
  let wasm: { close(): void } | undefined;
  let mcp: McpManager | undefined;
  try {
    const registry = new ToolRegistry([...builtinTools(), createSkillTool(skills), scheduleTool({ repo: () => store.cron, cwd: o.settings.cwd })]);
    wasm = await attachWasmTools(registry, {
      env,
      projectRoot: o.loaded.projectRoot,
      index: storeIndex(store),
      toolLimits: o.loaded.toolLimits,
      warn: (line) => void (uiStarted || process.stderr.write(`moat: ${line}\n`)),
    });
    // MCP servers start in the background; a failure after the UI started shows in /mcp.
    mcp = attachMcp(registry, {
      loaded: o.loaded,
      env,
      cwd: o.settings.cwd,
      flags: o.mcp ?? { configs: [], strict: false },
      addDirs: o.loaded.config.addDirs,
      approvalInUi: true,
      warn: (line) => void (uiStarted || process.stderr.write(`moat: ${line}\n`)),
    });
    controller = createTuiController({
      provider: o.router,
      router: o.router,
      registry,
      store,
      settings: o.settings,
      loaded: o.loaded,
      logFile: join(paths.dataDir, 'logs', 'tui.log'),
      skills,
      subagents: agents,
      mcp,
      ...(o.resume ? { resume: o.resume } : {}),
    });
  } catch (e) {
    wasm?.close();
    await mcp?.close();
    await agents.shutdown();
    store.close();
    throw e;
  }
  const { runTui } = await import('../tui/index.ts');
  uiStarted = true;
  try {
    return await runTui(controller, {
      // `[keymap]` was checked when the config loaded: a bad key already stopped moat with file and line.
      keymap: o.loaded.config.keymap,
      ...(compositionOptions().injectCrash === true ? { injectCrash: true } : {}),
      ...(o.prompt ? { initialPrompt: o.prompt } : {}),
    });
  } catch (e) {
    // Every way out of a running UI shuts the controller down (sub-agents stopped, store closed); this is the UI failing to start.
    await controller.shutdown();
    throw e;
  } finally {
    wasm?.close();
    await mcp?.close();
  }
}
