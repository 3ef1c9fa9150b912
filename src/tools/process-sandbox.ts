/**
 * The OS sandbox as the tools see it: the settings a session runs processes
 * under (built once by the CLI from `[sandbox]` config and the permission
 * rules), and the grants for one process at a level — read-only (plan and
 * default mode) or workspace-write (acceptEdits, an allow rule, an approved
 * request). Bash uses it; hooks, `!cmd` and MCP stdio servers take the same
 * grants.
 */
import { DEFAULT_SCRUB_ENV, sandboxInstalled, type ProcessGrants, type SandboxLevel, type SandboxMode } from '../sandbox/index.ts';
import type { PathBases } from './permissions/path-pattern.ts';
import type { Rule } from './permissions/rule.ts';
import { ruleSandboxGrants } from './permissions/sandbox-paths.ts';
import { denyPathRules, denyRulePaths, type DenyPathRules } from './sandbox-rule-paths.ts';

export interface ProcessSandboxSettings {
  mode: SandboxMode;
  /** False when mode is off, or auto on a machine that cannot sandbox: bash then asks as it did before. */
  active: boolean;
  /** Why it is not active (auto on a machine without it), for the start-up line and status. */
  unavailableReason?: string;
  scrubEnv: string[];
  /** Extra write roots for workspace-write, beyond the working folder and --add-dir folders. */
  allowWrite: string[];
  /** From `[sandbox.filesystem]`; the deny rules' paths are added per command (denyRules). */
  denyRead: string[];
  denyWrite: string[];
  /** `Read(…)`/`Edit(…)` deny rules, resolved for each command: files created since start-up are denied too. */
  denyRules?: DenyPathRules;
  allowNetwork: string[];
  denyNetwork: string[];
  allowUnixSockets: string[];
  /** Composition root only (tests serving on 127.0.0.1): granted hosts may resolve to private addresses. */
  allowPrivateNetwork?: boolean;
}

/** The `[sandbox]` part of the config, as config/ resolves it (camelCase, absolute paths). */
export interface OsSandboxInput {
  mode: SandboxMode;
  scrubEnv: string[] | undefined;
  scrubEnvExtra: string[];
  allowWrite: string[];
  denyRead: string[];
  denyWrite: string[];
  allowNetwork: string[];
  denyNetwork: string[];
  /** `[sandbox.network] allow_unix_sockets`; absent in older inputs. */
  allowUnixSockets?: string[];
}

/** Settings from config and rules: deny rules become kernel-enforced denies, WebFetch allow rules hosts. */
export function processSandboxSettings(
  config: OsSandboxInput,
  rules: { allow: readonly Rule[]; deny: readonly Rule[] },
  bases: PathBases,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ProcessSandboxSettings {
  // Only the hosts here: the deny rules' paths are resolved per command (processGrants).
  const fromRules = ruleSandboxGrants({ allow: rules.allow, deny: [] }, bases);
  // Start-up only looks for the programs; whether namespaces work is found on the first command (and a failure then refuses, never runs unsandboxed).
  const support = config.mode === 'off' ? undefined : sandboxInstalled(env);
  const active = support?.available === true;
  return {
    mode: config.mode,
    active,
    ...(support !== undefined && !active && support.reason !== undefined ? { unavailableReason: support.reason } : {}),
    scrubEnv: [...(config.scrubEnv ?? DEFAULT_SCRUB_ENV), ...config.scrubEnvExtra],
    allowWrite: config.allowWrite,
    denyRead: config.denyRead,
    denyWrite: config.denyWrite,
    denyRules: denyPathRules(rules.deny, bases),
    allowNetwork: [...new Set([...config.allowNetwork, ...fromRules.allowNetwork])],
    denyNetwork: config.denyNetwork,
    allowUnixSockets: config.allowUnixSockets ?? [],
  };
}

/**
 * The grants of one process at `level`. `roots` are the working folder and
 * the --add-dir folders (a sub-agent's: its worktree); `cwd` the folder the
 * process starts in, which the deny rules are resolved for. Read-only writes
 * only the temp folder and has no network; workspace-write adds the roots, the
 * configured write folders and the allowed hosts.
 */
export function processGrants(level: SandboxLevel, settings: ProcessSandboxSettings, roots: readonly string[], cwd?: string): ProcessGrants {
  const write = level === 'workspace-write';
  const fromRules = denyRulePaths(settings.denyRules, cwd);
  const denyWrite = [...settings.denyWrite, ...fromRules.denyWrite];
  return {
    allowWrite: write ? [...roots, ...settings.allowWrite] : [],
    denyRead: [...settings.denyRead, ...fromRules.denyRead],
    // Read-only means the roots too, even where they lie inside the always-writable temp folder.
    denyWrite: write ? denyWrite : [...roots, ...denyWrite],
    allowNetwork: write ? settings.allowNetwork : [],
    denyNetwork: settings.denyNetwork,
    // Like hosts, sockets (docker, an agent) are a reach beyond the folder: workspace-write only.
    allowUnixSockets: write ? settings.allowUnixSockets : [],
    ...(settings.allowPrivateNetwork === true ? { allowPrivateNetwork: true } : {}),
  };
}

/**
 * The sandbox's own words for a level, for dialogs and denials. Without the
 * settings (the permission gate has only the roots) the hosts are named by
 * where they come from rather than listed.
 */
export function describeGrant(level: SandboxLevel | 'off', roots: readonly string[], settings?: Pick<ProcessSandboxSettings, 'allowWrite' | 'allowNetwork'>): string {
  switch (level) {
    case 'read-only':
      return 'in the read-only sandbox (reads allowed, writes only to the temp folder, no network)';
    case 'workspace-write': {
      const write = [...roots, ...(settings?.allowWrite ?? [])].join(', ');
      const hosts =
        settings === undefined
          ? 'network only to the hosts in [sandbox.network] allow and WebFetch(domain:…) rules'
          : settings.allowNetwork.length > 0
            ? `network only to ${settings.allowNetwork.join(', ')}`
            : 'no network';
      return `in the sandbox with write access to ${write} and the temp folder; ${hosts}`;
    }
    case 'off':
      return 'outside the sandbox, with your full access to files, network and environment (provider keys still removed)';
  }
}
