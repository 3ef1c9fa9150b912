/**
 * The OS sandbox grants of one process, from the session's settings: what a
 * command, hook, `!cmd` or MCP stdio server may write and reach, with the
 * deny rules' paths resolved for the folder it starts in. Loaded with the
 * first process, not before the first request (the resolution walks folders).
 */
import type { SandboxLevel, SandboxPolicy } from '../contracts/index.ts';
import type { ProcessGrants } from '../sandbox/index.ts';

import { denyRulePaths } from './sandbox-rule-paths.ts';

/**
 * The grants of one process at `level`. `roots` are the working folder and
 * the --add-dir folders (a sub-agent's: its worktree); `cwd` the folder the
 * process starts in, which the deny rules are resolved for. Read-only writes
 * only the temp folder and has no network; workspace-write adds the roots, the
 * configured write folders and the allowed hosts.
 */
export function processGrants(level: SandboxLevel, settings: SandboxPolicy, roots: readonly string[], cwd?: string): ProcessGrants {
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
    ...(write && settings.allowLoopback === true ? { allowLoopback: true } : {}),
    ...(settings.limits === undefined ? {} : { limits: settings.limits }),
  };
}
