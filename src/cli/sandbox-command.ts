/** `moat sandbox status`: whether the OS sandbox works here, why not, and the policy commands run under. */
import { homedir, tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { builtinDenyRead, DEFAULT_SCRUB_ENV, sandboxSupport } from '../sandbox/index.ts';
import { parseRuleList, processGrants, processSandboxSettings, type ProcessSandboxSettings } from '../tools/index.ts';
import { EXIT } from './exit-codes.ts';
import { out } from './write-out.ts';

export const sandboxCommands = {
  sandboxStatus(opts: { cwd?: string; json?: boolean }): Promise<number> {
    const env = process.env;
    const cwd = resolve(opts.cwd ?? process.cwd());
    const loaded = loadConfig({ cwd, env });
    const home = env.HOME || homedir();
    const rules = { allow: parseRuleList(loaded.config.permissions.allow), deny: parseRuleList(loaded.config.permissions.deny) };
    const settings = processSandboxSettings(loaded.osSandbox, rules, { projectRoot: loaded.projectRoot, home }, env);
    const support = settings.mode === 'off' ? undefined : sandboxSupport(env);
    const roots = [cwd, ...loaded.config.addDirs];
    const report = statusReport(settings, support, roots, env);
    out(opts.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatStatus(report));
    return Promise.resolve(EXIT.ok);
  },
};

interface StatusReport {
  working: boolean;
  mode: ProcessSandboxSettings['mode'];
  reason?: string;
  bubblewrap?: string;
  socat?: string;
  readOnly: { write: string[]; network: string[] };
  workspaceWrite: { write: string[]; network: string[] };
  denyRead: string[];
  denyWrite: string[];
  denyNetwork: string[];
  scrubEnv: string[];
}

function statusReport(settings: ProcessSandboxSettings, support: ReturnType<typeof sandboxSupport> | undefined, roots: string[], env: NodeJS.ProcessEnv): StatusReport {
  const ro = processGrants('read-only', settings, roots);
  const ww = processGrants('workspace-write', settings, roots);
  const reason = settings.mode === 'off' ? '[sandbox] mode = "off"' : support?.available === true ? undefined : support?.reason;
  return {
    working: support?.available === true,
    mode: settings.mode,
    ...(reason === undefined ? {} : { reason }),
    ...(support?.bwrap === undefined ? {} : { bubblewrap: support.bwrap }),
    ...(support?.socat === undefined ? {} : { socat: support.socat }),
    readOnly: { write: [...ro.allowWrite, tmpdir()], network: ro.allowNetwork },
    workspaceWrite: { write: [...ww.allowWrite, tmpdir()], network: ww.allowNetwork },
    denyRead: [...builtinDenyRead(env), ...settings.denyRead],
    denyWrite: settings.denyWrite,
    denyNetwork: settings.denyNetwork,
    scrubEnv: settings.scrubEnv.length > 0 ? settings.scrubEnv : [...DEFAULT_SCRUB_ENV],
  };
}

function list(items: readonly string[], none: string): string {
  return items.length === 0 ? none : items.join(', ');
}

export function formatStatus(r: StatusReport): string {
  const head = r.working
    ? `OS sandbox: on (mode ${r.mode}; bubblewrap ${r.bubblewrap ?? ''}, socat ${r.socat ?? ''})`
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
    `  read-only:    git hooks and config, .claude settings, .moat, .mcp.json in each writable folder${r.denyWrite.length > 0 ? `; ${r.denyWrite.join(', ')}` : ''}`,
    `  Unix sockets: none; processes cannot see or signal moat (own PID namespace); they end with their call`,
    `  environment:  provider API keys removed, and ${r.scrubEnv.join(', ')}`,
    '',
  ].join('\n');
}
