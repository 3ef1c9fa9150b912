/** What the TUI's banner and status line say about a session: the queries' info(), and the frame drawn before the session exists. */
import pkg from '../../package.json' with { type: 'json' };
import { contextWindow, type AgentSettings } from '../agent/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import type { TuiInfo } from '../tui/index.ts';

/** All of TuiInfo but the session's id (the first frame does not show it; reading it opens the session). */
export function tuiInfo(settings: Pick<AgentSettings, 'model' | 'cwd' | 'permissionMode' | 'processSandbox'>, router: ModelRouter | undefined, gitBranch: string | undefined): Omit<TuiInfo, 'sessionId'> {
  return {
    version: pkg.version,
    model: settings.model,
    cwd: settings.cwd,
    ...(gitBranch ? { gitBranch } : {}),
    permissionMode: settings.permissionMode,
    contextWindow: contextWindow(settings.model, router),
    ...(settings.processSandbox?.active === true ? { osSandbox: true } : {}),
  };
}
