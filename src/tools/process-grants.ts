/**
 * The OS sandbox grants of one process as the tools see them: the sandbox's
 * level grants (sandbox/policy.ts) plus the permission rules' deny paths,
 * resolved for the folder the process starts in. Loaded with the first
 * process, not before the first request (the resolution walks folders).
 */
import type { SandboxLevel, SandboxPolicy } from '../contracts/index.ts';
import { levelGrants, type ProcessGrants, type ProcessScope } from '../sandbox/index.ts';

import { denyRulePaths } from './sandbox-rule-paths.ts';

/**
 * The grants of one process at `level`. `roots` are the working folder and
 * the --add-dir folders (a sub-agent's: its worktree); `cwd` the folder the
 * process starts in, which the deny rules are resolved for.
 */
export function processGrants(level: SandboxLevel, settings: SandboxPolicy, roots: readonly string[], cwd?: string): ProcessGrants {
  return levelGrants(level, settings, roots, denyRulePaths(settings.denyRules, cwd));
}

/** What runSandboxed needs besides the policy: the roots, and the rules' deny paths resolved only if it is sandboxed. */
export function processScope(settings: SandboxPolicy | undefined, roots: readonly string[], cwd: string): ProcessScope {
  return { roots, ruleDenies: () => denyRulePaths(settings?.denyRules, cwd) };
}
