/**
 * `moat` in a terminal draws its first frame as soon as the config is read,
 * before the session is assembled (the store, the tools, MCP, the TUI client
 * and the UI's model load behind it): tui/early-paint.ts. Drawn only for a new
 * session whose first frame is known now: not for a resumed one (its
 * conversation), a first prompt (its running turn), a folder whose settings
 * ask to be trusted or whose MCP servers may ask for approval (a question in
 * the frame).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSettings } from '../agent/index.ts';
import type { LoadedConfig } from '../config/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import type { EarlyPaint } from '../tui/index.ts';
import { gitHead } from '../util/index.ts';
import type { McpFlags } from './mcp-setup.ts';
import { tuiInfo } from './tui-info.ts';

export interface EarlyPaintInputs {
  loaded: LoadedConfig;
  settings: AgentSettings;
  router: ModelRouter;
  mcp: McpFlags;
  /** `moat "task"`, `--resume`, `--continue`: the first frame is not the banner alone. */
  prompt: string;
  resume: string | undefined;
}

/** The first frame on screen now, when it is sure to be Ink's first frame; undefined otherwise. */
export async function paintBeforeSession(o: EarlyPaintInputs): Promise<EarlyPaint | undefined> {
  if (o.prompt !== '' || o.resume !== undefined || o.loaded.untrusted.length > 0) return undefined;
    const project = o.loaded.parsedFiles.project?.data;
  if (o.mcp.configs.length > 0 || existsSync(join(o.loaded.projectRoot, '.mcp.json')) || project?.mcp_servers !== undefined) return undefined;
  // The UI's renderers, not Ink (runTui loads Ink once the frame is up); interactive.ts imports the same module. Loading
  // them is ~8 ms in-process (timestamps in the compiled binary): -p, which never draws, does not pay it.
  const { paintEarly, stdioIsTerminal } = await import('../tui/index.ts');
  if (!stdioIsTerminal()) return undefined;
  // The session's id is not in the first frame; the client's info() reads it when asked.
  return paintEarly({ ...tuiInfo(o.settings, o.router, gitHead(o.settings.cwd)?.branch), sessionId: '' }, o.loaded.config.keymap);
}
