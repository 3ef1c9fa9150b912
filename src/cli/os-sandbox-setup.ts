/** The OS sandbox settings of a run, from `[sandbox]` config and the rules; and what start-up says about them. */
import type { LoadedConfig } from '../config/index.ts';
import { processSandboxSettings, type ProcessSandboxSettings, type Rule } from '../tools/index.ts';
import { MoatError } from '../util/index.ts';
import { compositionOptions } from './composition.ts';

export function processSandboxFrom(
  loaded: LoadedConfig,
  rules: { allow: readonly Rule[]; deny: readonly Rule[] },
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): ProcessSandboxSettings {
  const settings = processSandboxSettings(loaded.osSandbox, rules, { projectRoot: loaded.projectRoot, home }, env);
  if (compositionOptions().allowPrivateNetwork === true) settings.allowPrivateNetwork = true;
  if (settings.mode === 'required' && !settings.active) {
    throw new MoatError('config', `the OS sandbox is required ([sandbox] mode = "required") but cannot run here: ${settings.unavailableReason ?? 'unknown reason'}`);
  }
  return settings;
}

/** One line when `auto` cannot sandbox here: never a silent weakening. Undefined when there is nothing to say. */
export function sandboxNotice(settings: ProcessSandboxSettings | undefined): string | undefined {
  if (settings === undefined || settings.active || settings.mode !== 'auto') return undefined;
  return `the OS sandbox is off: ${settings.unavailableReason ?? 'not available here'}; bash commands will ask for approval`;
}
