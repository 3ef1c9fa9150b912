/**
 * The OS sandbox as the tools see it: the settings a session runs processes
 * under (built once by the CLI from `[sandbox]` config and the permission
 * rules), and the grants for one process at a level — read-only (plan and
 * default mode) or workspace-write (acceptEdits, an allow rule, an approved
 * request). Bash uses it; hooks, `!cmd` and MCP stdio servers take the same
 * grants.
 */
import type { DenyPathRules, PathBases, PathPattern, SandboxConfig, SandboxLevel, SandboxPolicy } from '../contracts/index.ts';
import { DEFAULT_SCRUB_ENV, sandboxInstalled } from '../sandbox/index.ts';
import type { Rule } from './permissions/rule.ts';
import { ruleNetworkHosts } from './permissions/rule-hosts.ts';

function denyPathRules(deny: readonly Rule[], bases: PathBases): DenyPathRules {
  const read: PathPattern[] = [];
  const write: PathPattern[] = [];
  for (const rule of deny) if (rule.type === 'path') (rule.ruleName === 'Read' ? read : write).push(rule.pattern);
  return { read, write, bases };
}

/** Settings from config and rules: deny rules become kernel-enforced denies, WebFetch allow rules hosts. */
export function processSandboxSettings(
  config: SandboxConfig,
  rules: { allow: readonly Rule[]; deny: readonly Rule[] },
  bases: PathBases,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SandboxPolicy {
  // Only the hosts here: the deny rules' paths are resolved per command (processGrants).
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
    allowNetwork: [...new Set([...config.allowNetwork, ...ruleNetworkHosts(rules.allow)])],
    denyNetwork: config.denyNetwork,
    allowUnixSockets: config.allowUnixSockets,
    ...(config.allowLoopback === true ? { allowLoopback: true } : {}),
    ...(config.limits === undefined ? {} : { limits: config.limits }),
  };
}

/**
 * The sandbox's own words for a level, for dialogs and denials. Without the
 * settings (the permission gate has only the roots) the hosts are named by
 * where they come from rather than listed.
 */
export function describeGrant(level: SandboxLevel | 'off', roots: readonly string[], settings?: Pick<SandboxPolicy, 'allowWrite' | 'allowNetwork'>): string {
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
