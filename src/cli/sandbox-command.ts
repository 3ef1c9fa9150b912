/** `moat sandbox status`: whether the OS sandbox works here, why not, and the policy commands run under. */
import type { SandboxPolicy } from '../contracts/index.ts';
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { builtinDenyRead, DEFAULT_SCRUB_ENV, sandboxSupport } from '../sandbox/index.ts';
import { parseRuleList, processGrants } from '../tools/index.ts';
import { EXIT } from './exit-codes.ts';
import { sandboxSettingsFrom } from './os-sandbox-setup.ts';
import { out } from './write-out.ts';
import { nodeOs, homeOf } from '../util/index.ts';

export const sandboxCommands = {
  sandboxStatus(opts: { cwd?: string; json?: boolean }): Promise<number> {
    const env = process.env;
    const cwd = resolve(opts.cwd ?? process.cwd());
    const loaded = loadConfig({ cwd, env });
    const home = homeOf(env);
    const rules = { allow: parseRuleList(loaded.config.permissions.allow), deny: parseRuleList(loaded.config.permissions.deny) };
    const settings = sandboxSettingsFrom(loaded, rules, home, env);
    // Looked for even when off, so the status names this platform's backend.
    const support = sandboxSupport(env);
    const roots = [cwd, ...loaded.config.addDirs];
    const report = statusReport(settings, support, roots, cwd, env);
    out(opts.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
    return Promise.resolve(EXIT.ok);
  },
};

interface StatusReport {
  working: boolean;
  mode: SandboxPolicy['mode'];
  /** This platform's backend (Linux: bubblewrap, macOS: Seatbelt, Windows: none). */
  backend: 'bubblewrap' | 'seatbelt' | 'none';
  reason?: string;
  bubblewrap?: string;
  socat?: string;
  sandboxExec?: string;
  readOnly: { write: string[]; network: string[] };
  workspaceWrite: { write: string[]; network: string[] };
  denyRead: string[];
  denyWrite: string[];
  denyNetwork: string[];
  unixSockets: string[];
  scrubEnv: string[];
  /** Running as root: what a sandboxed command still has. */
  asRoot?: string;
}

/** What the sandbox cannot take from a command when moat runs as root: it is the host's uid 0, without capabilities. */
export const AS_ROOT =
  "moat runs as root, so each command is the host's uid 0 with no capabilities and no_new_privs: it can still read every file root owns that is not unreadable above (the usual root-only secrets are), " +
  'write what root owns inside the writable folders, and leave root-owned (even setuid) files there for others to run; run moat as an ordinary user to take that away';

export function statusReport(settings: SandboxPolicy, support: ReturnType<typeof sandboxSupport> | undefined, roots: string[], cwd: string, env: NodeJS.ProcessEnv): StatusReport {
  const ro = processGrants('read-only', settings, roots, cwd);
  // The deny rules as they are resolved for a command started here, now.
  const ww = processGrants('workspace-write', settings, roots, cwd);
  const reason = settings.mode === 'off' ? '[sandbox] mode = "off"' : support?.available === true ? undefined : support?.reason;
  return {
    working: settings.mode !== 'off' && support?.available === true,
    mode: settings.mode,
    backend: support?.backend ?? 'none',
    ...(reason === undefined ? {} : { reason }),
    ...(support?.sandboxExec === undefined ? {} : { sandboxExec: support.sandboxExec }),
    ...(support?.bwrap === undefined ? {} : { bubblewrap: support.bwrap }),
    ...(support?.socat === undefined ? {} : { socat: support.socat }),
    readOnly: { write: [...ro.allowWrite, nodeOs().tmpdir()], network: ro.allowNetwork },
    workspaceWrite: { write: [...ww.allowWrite, nodeOs().tmpdir()], network: ww.allowNetwork },
    denyRead: [...builtinDenyRead(env), ...ww.denyRead],
    denyWrite: ww.denyWrite,
    denyNetwork: settings.denyNetwork,
    unixSockets: ww.allowUnixSockets,
    scrubEnv: settings.scrubEnv.length > 0 ? settings.scrubEnv : [...DEFAULT_SCRUB_ENV],
    ...(process.geteuid?.() === 0 && support?.backend === 'bubblewrap' ? { asRoot: AS_ROOT } : {}),
  };
}

function list(items: readonly string[], none: string): string {
  return items.length === 0 ? none : items.join(', ');
}

export function formatStatus(r: StatusReport): string {
  const using = r.backend === 'seatbelt' ? `Seatbelt ${r.sandboxExec ?? ''}` : `bubblewrap ${r.bubblewrap ?? ''}, socat ${r.socat ?? ''}`;
  const head = r.working
    ? `OS sandbox: on (mode ${r.mode}; ${using})`
    : `OS sandbox: OFF (mode ${r.mode}): ${r.reason ?? 'not available'}${r.mode === 'auto' ? ' — bash commands ask for approval instead' : ''}`;
  return [
    head,
    '',
    'read-only (plan, default mode):',
    `  write:   ${list(r.readOnly.write, 'nothing')}`,
    `  network: ${list(r.readOnly.network, 'none')}`,
    'workspace-write (acceptEdits, bypassPermissions, an allow rule, or approved):',
    `  write:   ${list(r.workspaceWrite.write, 'nothing')}`,
    `  network: ${list(r.workspaceWrite.network, 'none')}${r.denyNetwork.length > 0 ? ` (never: ${r.denyNetwork.join(', ')})` : ''}`,
    'always:',
    `  unreadable:   ${list(r.denyRead, 'nothing')}`,
    `  read-only:    git hooks and config, .claude settings, .moat, .mcp.json in each writable folder, also before they exist${r.denyWrite.length > 0 ? `; ${r.denyWrite.join(', ')}` : ''}`,
    r.backend === 'seatbelt'
      ? `  Unix sockets: ${r.unixSockets.length === 0 ? 'none' : `only ${r.unixSockets.join(', ')}`}; processes cannot inspect or signal moat (Seatbelt allows only their own sandbox)`
      : `  Unix sockets: ${r.unixSockets.length === 0 ? 'none' : `with workspace-write, any (Linux cannot filter them by path; allowed: ${r.unixSockets.join(', ')})`}; processes cannot see or signal moat (own PID namespace); they end with their call`,
    `  environment:  provider API keys removed, and ${r.scrubEnv.join(', ')}`,
    ...(r.asRoot === undefined ? [] : ['', `as root: ${r.asRoot}`]),
    '',
  ].join('\n');
}
