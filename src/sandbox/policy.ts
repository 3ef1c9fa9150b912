/**
 * What one process may do, from the session's `SandboxPolicy` and the level
 * it runs at: the grants of read-only and workspace-write, and the options
 * prepareCommand takes. Every process moat starts gets its grants here, so a
 * level means the same for Bash, hooks, `!cmd` and MCP stdio servers.
 */
import type { SandboxGrant, SandboxLevel, SandboxMode, SandboxPolicy } from '../contracts/index.ts';
import { DEFAULT_SCRUB_ENV } from './os/env-scrub.ts';
import type { ProcessGrants } from './os/types.ts';

/** Paths the permission rules deny, resolved for one process (tools/ owns the rules; the sandbox only enforces them). */
export interface RuleDenies {
  denyRead: string[];
  denyWrite: string[];
}

/** Where one process runs and what it may write besides the policy's own folders. */
export interface ProcessScope {
  /** The working folder and --add-dir folders (a sub-agent's: its worktree): what workspace-write may write. */
  roots: readonly string[];
  /** The permission rules' paths for this process; computed only when it is sandboxed (resolving walks folders). */
  ruleDenies?: () => RuleDenies;
}

/** The grants, mode and scrub list one process is prepared with. */
export interface ProcessPolicy {
  level: SandboxGrant;
  mode: SandboxMode;
  grants: ProcessGrants;
  scrubEnv: readonly string[];
}

const NO_GRANTS: ProcessGrants = { allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [] };

/**
 * The grants of one process at `level`. Read-only writes only the temp
 * folder and has no network; workspace-write adds the roots, the configured
 * write folders, the allowed hosts and sockets.
 */
export function levelGrants(level: SandboxLevel, policy: SandboxPolicy, roots: readonly string[], rules: RuleDenies = { denyRead: [], denyWrite: [] }): ProcessGrants {
  const write = level === 'workspace-write';
  const denyWrite = [...policy.denyWrite, ...rules.denyWrite];
  return {
    allowWrite: write ? [...roots, ...policy.allowWrite] : [],
    denyRead: [...policy.denyRead, ...rules.denyRead],
    // Read-only means the roots too, even where they lie inside the always-writable temp folder.
    denyWrite: write ? denyWrite : [...roots, ...denyWrite],
    allowNetwork: write ? policy.allowNetwork : [],
    denyNetwork: policy.denyNetwork,
    // Like hosts, sockets (docker, an agent) are a reach beyond the folder: workspace-write only.
    allowUnixSockets: write ? policy.allowUnixSockets : [],
    ...(policy.allowPrivateNetwork === true ? { allowPrivateNetwork: true } : {}),
    ...(write && policy.allowLoopback === true ? { allowLoopback: true } : {}),
    ...(policy.observeNetwork === true ? { observeNetwork: true } : {}),
    ...(policy.limits === undefined ? {} : { limits: policy.limits }),
  };
}

/**
 * One process's policy. `policy` undefined (no sandbox configured), its mode
 * off, or `level` off (the user approved running it outside): unsandboxed,
 * still with the scrubbed environment. Whether `off` may be used at all under
 * mode "required" is the caller's to refuse, in its own words.
 */
export function processPolicy(policy: SandboxPolicy | undefined, level: SandboxGrant, scope: ProcessScope): ProcessPolicy {
  const scrubEnv = policy?.scrubEnv ?? DEFAULT_SCRUB_ENV;
  if (policy === undefined || policy.mode === 'off' || level === 'off') return { level: 'off', mode: 'off', grants: NO_GRANTS, scrubEnv };
  return { level, mode: policy.mode, grants: levelGrants(level, policy, scope.roots, scope.ruleDenies?.()), scrubEnv };
}
