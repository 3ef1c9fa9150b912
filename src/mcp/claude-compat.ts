// What moat takes from Claude Code besides its server entries: the MCP_* variables, and its approvals of .mcp.json servers.
import { formatIssue } from '../contracts/index.ts';
import { z } from 'zod';
import { claudeRecord, claudeSettingsPaths, folderTrusted, homeOf, moatPaths, readClaudeSettings, type Env } from '../config/index.ts';
import { errorMessage } from '../util/index.ts';
import { DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from './server-config.ts';

/** Every server's defaults; a server's own `startup_timeout_sec`, `tool_timeout_sec` or `max_output_tokens` wins. */
export interface ServerDefaults {
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  maxOutputTokens: number;
}

/**
 * Claude Code's variables: `MCP_TIMEOUT` (start-up, milliseconds),
 * `MCP_TOOL_TIMEOUT` (one call, milliseconds), `MAX_MCP_OUTPUT_TOKENS`. A value
 * that is not a positive whole number is one problem line and the default.
 */
export function serverDefaults(env: Env, problems: string[]): ServerDefaults {
  const read = (name: string, fallback: number, unit: string): number => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const n = Number(raw);
    if (Number.isInteger(n) && n > 0) return n;
    problems.push(`${name}=${raw}: not a positive whole number of ${unit}; using ${fallback}`);
    return fallback;
  };
  return {
    startupTimeoutMs: read('MCP_TIMEOUT', DEFAULT_STARTUP_TIMEOUT_MS, 'milliseconds'),
    toolTimeoutMs: read('MCP_TOOL_TIMEOUT', DEFAULT_TOOL_TIMEOUT_MS, 'milliseconds'),
    maxOutputTokens: read('MAX_MCP_OUTPUT_TOKENS', DEFAULT_MAX_OUTPUT_TOKENS, 'tokens'),
  };
}

/** Built when a file holds approvals (a start-up without one builds no schema). */
const approvalsShape = () =>
  z.object({
    enableAllProjectMcpServers: z.boolean().optional(),
    enabledMcpjsonServers: z.array(z.string()).optional(),
    disabledMcpjsonServers: z.array(z.string()).optional(),
  });

/** Which `.mcp.json` servers the user approved (all, or by name) or turned down in Claude Code. */
export interface ClaudeApprovals {
  all: boolean;
  enabled: ReadonlySet<string>;
  disabled: ReadonlySet<string>;
}

/** A settings file's data as the config loader read it (once per process); undefined when missing or broken (the loader says so). */
function settingsData(source: 'user' | 'local', file: string, shown: string, problems: string[]): unknown {
  try {
    return readClaudeSettings(source, file, shown)?.data;
  } catch (e) {
    problems.push(`${errorMessage(e)}; its MCP approvals are ignored`);
    return undefined;
  }
}

/**
 * `enableAllProjectMcpServers`, `enabledMcpjsonServers` and
 * `disabledMcpjsonServers` from the user's own files: `~/.claude/settings.json`,
 * and this project's entry in `~/.claude.json`; and from the project's
 * `.claude/settings.local.json` (where Claude Code's approval dialog writes
 * them) only once the folder is trusted (`moat trust`, or Claude Code's own
 * trust record): a cloned repository must not approve the servers it brings.
 * A value of the wrong kind is one problem line and approves nothing.
 */
export function claudeApprovals(env: Env, projectRoot: string, problems: string[]): ClaudeApprovals {
  const home = homeOf(env);
  const out = { all: false, enabled: new Set<string>(), disabled: new Set<string>() };
  const paths = claudeSettingsPaths(home, projectRoot);
  const sources = [
    { shown: '~/.claude/settings.json', part: () => settingsData('user', paths.user, '~/.claude/settings.json', problems) },
    { shown: '~/.claude.json', part: () => claudeRecord(home, projectRoot).project(projectRoot) },
    // Read only when trusted: until then the project's own file may not start what it names.
    ...(folderTrusted(projectRoot, moatPaths(env).configDir, home) ? [{ shown: '.claude/settings.local.json', part: () => settingsData('local', paths.local, '.claude/settings.local.json', problems) }] : []),
  ];
  for (const { shown, part: read } of sources) {
    const part = read();
    if (part === undefined || part === null) continue;
    const parsed = approvalsShape().safeParse(part);
    if (!parsed.success) {
      problems.push(`${shown}: ${formatIssue(parsed.error.issues[0])}; its MCP approvals are ignored`);
      continue;
    }
    if (parsed.data.enableAllProjectMcpServers === true) out.all = true;
    for (const n of parsed.data.enabledMcpjsonServers ?? []) out.enabled.add(n);
    for (const n of parsed.data.disabledMcpjsonServers ?? []) out.disabled.add(n);
  }
  return out;
}
