/** The OS sandbox settings of a run, from `[sandbox]` config and the rules; and what start-up says about them. */
import type { SandboxPolicy } from '../contracts/index.ts';
import type { LoadedConfig } from '../config/index.ts';
import { BUILTIN_PROVIDERS } from '../providers/index.ts';
import { processSandboxSettings, type Rule } from '../tools/index.ts';
import { MoatError } from '../util/index.ts';
import { compositionOptions } from './composition.ts';

/**
 * Every variable a provider's key is read from: the built-in providers' and
 * each `[providers.<name>] api_key_env`. They are scrubbed from sandboxed
 * processes whatever `scrub_env` says: replacing the default patterns must not
 * hand a command the key moat talks to its model with.
 */
export function providerKeyVariables(loaded: LoadedConfig): string[] {
  const names = new Set<string>();
  for (const p of Object.values(BUILTIN_PROVIDERS)) for (const n of [p.apiKeyEnv, ...(p.altKeyEnvs ?? [])]) if (n !== undefined) names.add(n);
  for (const p of Object.values(loaded.config.providers)) if (p.apiKeyEnv !== undefined) names.add(p.apiKeyEnv);
  return [...names];
}

/** `[sandbox]` config and the rules as settings, with the provider keys always scrubbed. */
export function sandboxSettingsFrom(
  loaded: LoadedConfig,
  rules: { allow: readonly Rule[]; deny: readonly Rule[] },
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): SandboxPolicy {
  const settings = processSandboxSettings(loaded.osSandbox, rules, { projectRoot: loaded.projectRoot, home }, env);
  settings.scrubEnv = [...new Set([...settings.scrubEnv, ...providerKeyVariables(loaded)])];
  return settings;
}

export function processSandboxFrom(
  loaded: LoadedConfig,
  rules: { allow: readonly Rule[]; deny: readonly Rule[] },
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): SandboxPolicy {
  const settings = sandboxSettingsFrom(loaded, rules, home, env);
  if (compositionOptions().allowPrivateNetwork === true) settings.allowPrivateNetwork = true;
  if (settings.mode === 'required' && !settings.active) {
    throw new MoatError('config', `the OS sandbox is required ([sandbox] mode = "required") but cannot run here: ${settings.unavailableReason ?? 'unknown reason'}`);
  }
  return settings;
}

/** One line when `auto` cannot sandbox here: never a silent weakening. Undefined when there is nothing to say. */
export function sandboxNotice(settings: SandboxPolicy | undefined): string | undefined {
  if (settings === undefined || settings.active || settings.mode !== 'auto') return undefined;
  return `the OS sandbox is off: ${settings.unavailableReason ?? 'not available here'}; bash commands will ask for approval`;
}
