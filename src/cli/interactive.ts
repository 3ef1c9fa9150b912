/**
 * `moat` without -p: builds the controller and hands the terminal to the
 * interactive UI. The UI (Ink + React) is imported lazily, so `--version`,
 * `-p` and the `sessions` commands never load it. What the first frame does
 * not show (the store, the session, the WebAssembly tools) is set up once that
 * frame is on screen.
 */
import { compositionOptions } from './composition.ts';
import { join } from 'node:path';
import { createSkillTool, type AgentSettings } from '../agent/index.ts';
import { moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import { lazyStore } from '../store/index.ts';
import { builtinTools, ToolRegistry } from '../tools/index.ts';
import { MoatError, startupOver } from '../util/index.ts';
import { definitionRoots, loadSkillsReporting } from './skill-setup.ts';
import { subagentSetup } from './subagent-setup.ts';
import { createTuiController, type StartedTuiController } from './tui-controller.ts';
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
  // The UI's model and renderers (not Ink: runTui loads Ink once the first frame is on screen). Asking the
  // terminal through it builds no Node stream: the first frame is drawn before they are built.
  const tui = await import('../tui/index.ts');
  if (!tui.stdioIsTerminal()) {
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
  // Opened on first use: the first frame reads nothing from it, and opening it (migrations, WAL) is several milliseconds.
  const store = lazyStore(paths.dbFile);
  let controller: StartedTuiController;
  let uiStarted = false;
  let wasm: { close(): void } | undefined;
  let mcp: McpManager | undefined;
  // WebAssembly tools attach once the first frame is drawn (a run waits for them); their warnings show in the transcript.
  let toolsAttached: () => void = () => {};
  const toolsReady = new Promise<void>((resolve) => {
    toolsAttached = resolve;
  });
  let attachTools: (warn: (line: string) => void) => Promise<void> = async () => {};
  let closed = false;
  try {
    const registry = new ToolRegistry([...builtinTools(), createSkillTool(skills), scheduleTool({ repo: () => store.cron, cwd: o.settings.cwd })]);
    attachTools = async (warn) => {
      try {
        wasm = await attachWasmTools(registry, { env, projectRoot: o.loaded.projectRoot, index: storeIndex(store), toolLimits: o.loaded.toolLimits, warn });
        // The UI may have closed while they attached.
        if (closed) wasm.close();
      } finally {
        toolsAttached();
      }
    };
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
      toolsReady,
    });
    // A resumed session opened above: its tools are attached before the UI starts, as they were before.
    if (o.resume) await attachTools((line) => void (uiStarted || process.stderr.write(`moat: ${line}\n`)));
  } catch (e) {
    wasm?.close();
    await mcp?.close();
    await agents.shutdown();
    store.close();
    throw e;
  }
  uiStarted = true;
  const started = controller;
  // Once the first frame is on screen: the session (store row, SessionStart, git's status), then the tools.
  const afterFirstFrame = async () => {
    started.openSession();
    if (!o.resume) await attachTools((line) => started.notice('warning', line));
    startupOver();
  };
  try {
    return await tui.runTui(controller, {
      // `[keymap]` was checked when the config loaded: a bad key already stopped moat with file and line.
      keymap: o.loaded.config.keymap,
      ...(compositionOptions().injectCrash === true ? { injectCrash: true } : {}),
      ...(o.prompt ? { initialPrompt: o.prompt } : {}),
      afterFirstFrame,
    });
  } catch (e) {
    // Every way out of a running UI shuts the controller down (sub-agents stopped, store closed); this is the UI failing to start.
    await controller.shutdown();
    throw e;
  } finally {
    closed = true;
    wasm?.close();
    await mcp?.close();
  }
}
