/**
 * `moat` without -p: builds the UI's client of the session and hands the terminal to the
 * interactive UI. The UI (Ink + React) is imported lazily, so `--version`,
 * `-p` and the `sessions` commands never load it. What the first frame does
 * not show (the store, the session, the WebAssembly tools) is set up once that
 * frame is on screen.
 */
import { compositionOptions } from './composition.ts';
import { join } from 'node:path';
import type { AgentSettings } from '../agent/index.ts';
import { moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import { MoatError, startupOver } from '../util/index.ts';
import { createTuiClient, type StartedTuiClient } from './tui-client.ts';
import { assembleSession } from './open-session.ts';
import type { McpFlags } from './mcp-setup.ts';
import type { Skill } from '../skills/index.ts';
import type { EarlyPaint } from '../tui/index.ts';
import { elicitationRelay } from './tui-elicitation.ts';

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
  /** The skills found (their warnings already said). */
  skills: Skill[];
  /** The first frame, drawn before the session was assembled (tui-early-paint.ts); the UI takes it over. */
  early?: EarlyPaint;
}

export async function runInteractive(o: InteractiveOptions): Promise<number> {
  const env = o.env ?? process.env;
  // The UI's model and renderers (not Ink: runTui loads Ink once the first frame is on screen). Asking the
  // terminal through it builds no Node stream: the first frame is drawn before they are built. Imported statically, it
  // delayed the first frame by 4-12 ms wall, ~4 ms CPU and Ink's by 2-10 ms CPU (seam-paths.ts, 20-50 runs, load 4-5).
  const tui = await import('../tui/index.ts');
  if (!tui.stdioIsTerminal()) {
    throw new MoatError('usage', 'the interactive UI needs a terminal: use moat -p "task" in scripts and pipes');
  }
  const paths = moatPaths(env);
  // Skills as in -p: listed to the model, runnable through the skill tool, and `/name args` in the prompt runs one.
  const skills = o.skills;
  o.settings.skills = skills.map((s) => ({ name: s.name, description: s.description, whenToUse: s.whenToUse }));
  // Before the UI starts a warning is a line on stderr; after, a line in the transcript.
  let client: StartedTuiClient | undefined;
  // Under an early frame a line on stderr would land inside it: the frame goes first (runTui draws its own).
  let early = o.early;
  const warn = (line: string) => {
    if (client !== undefined) return client.notice('warning', line);
    early?.abandon();
    early = undefined;
    process.stderr.write(`moat: ${line}\n`);
  };
  // MCP servers' questions go to the UI's form once it is up.
  const elicitation = elicitationRelay();
  // The one session assembly, as for -p: MCP servers start in the background (approved in /mcp), the
  // WebAssembly tools attach once the first frame is drawn (a run waits for them). The store opens on first
  // use: the first frame reads nothing from it, and opening it (migrations, WAL) is several milliseconds.
  const assembly = await assembleSession({
    loaded: o.loaded,
    settings: o.settings,
    router: o.router,
    env,
    skills,
    mcp: o.mcp ?? { configs: [], strict: false },
    warn,
    interactive: true,
    answers: { remember: (rule, scope) => client?.remember(rule, scope) },
    elicit: elicitation.elicit,
  });
  let toolsAttached: () => void = () => {};
  const toolsReady = new Promise<void>((resolve) => {
    toolsAttached = resolve;
  });
  const attachTools = () => assembly.attachTools(warn).finally(toolsAttached);
  let started: StartedTuiClient;
  try {
    started = createTuiClient({
      assembly,
      router: o.router,
      settings: o.settings,
      loaded: o.loaded,
      logFile: join(paths.dataDir, 'logs', 'tui.log'),
      skills,
      ...(o.resume ? { resume: o.resume } : {}),
      toolsReady,
      elicitation,
    });
    // A resumed session opened above: its tools are attached before the UI starts.
    if (o.resume) await attachTools();
  } catch (e) {
    await assembly.close();
    throw e;
  }
  client = started;
  // Once the first frame is on screen: the session (store row, SessionStart, git's status), then the tools.
  const afterFirstFrame = async () => {
    started.openSession();
    if (!o.resume) await attachTools();
    startupOver();
  };
  try {
    return await tui.runTui(started, {
      // `[keymap]` was checked when the config loaded: a bad key already stopped moat with file and line.
      keymap: o.loaded.config.keymap,
      ...(compositionOptions().injectCrash === true ? { injectCrash: true } : {}),
      ...(o.prompt ? { initialPrompt: o.prompt } : {}),
      afterFirstFrame,
      ...(early ? { early } : {}),
    });
  } catch (e) {
    // Every way out of a running UI shuts the client down (sub-agents stopped, the assembly closed); this is the UI failing to start.
    await started.lifecycle.shutdown();
    throw e;
  }
}
