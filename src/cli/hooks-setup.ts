/** The command hooks of the settings files, as callbacks for a session (beside an SDK program's own). */
import { commandHookCallbacks, mergeHookSets, type AgentSettings, type HookCallbackSet } from '../agent/index.ts';
import type { LoadedConfig } from '../config/index.ts';

export function settingsHooks(loaded: LoadedConfig, settings: AgentSettings, more?: HookCallbackSet): HookCallbackSet | undefined {
  const commands = commandHookCallbacks(loaded.hooks, {
    cwd: settings.cwd,
    projectRoot: loaded.projectRoot,
    roots: [settings.cwd, ...settings.addDirs],
    processSandbox: settings.processSandbox,
  });
  return mergeHookSets(commands, more);
}
