// Claude Code's settings files (~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json), read as config layers.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { errorMessage, MoatError, escapeRegExp, once } from '../util/index.ts';
import { HOOK_EVENTS, hooksShape } from './hooks-config.ts';
import { formatKeyPath, issueMessage, issuePath, type IssueLike } from '../contracts/index.ts';
import { PERMISSION_MODES } from '../contracts/index.ts';

/** Which files `--setting-sources` names: the user's, the project's shared one, the project's local one. */
export type SettingSource = 'user' | 'project' | 'local';
export const SETTING_SOURCES: readonly SettingSource[] = ['user', 'project', 'local'];

/** The part of Claude Code's settings moat applies; other keys (statusLine, theme, …) are accepted and left alone. Built when a file is read. */
const settingsShape = once(() =>
  z.looseObject({
    permissions: z
      .looseObject({
        allow: z.array(z.string().trim().min(1)).optional(),
        deny: z.array(z.string().trim().min(1)).optional(),
        ask: z.array(z.string().trim().min(1)).optional(),
        defaultMode: z.enum(PERMISSION_MODES).optional(),
        additionalDirectories: z.array(z.string().trim().min(1)).optional(),
      })
      .optional(),
    model: z.string().trim().min(1).optional(),
    env: z.record(z.string(), z.string()).optional(),
    hooks: hooksShape().optional(),
  }),
);

export type ClaudeSettings = z.infer<ReturnType<typeof settingsShape>>;

export interface ClaudeSettingsFile {
  source: SettingSource;
  path: string;
  display: string;
  data: ClaudeSettings;
  /** The 1-based line where a key path is written (for messages that point into the file). */
  lineOf(path: readonly (string | number)[]): number;
}

/** The settings files of each source, in Claude Code's precedence order (lowest first). */
export function claudeSettingsPaths(home: string, projectRoot: string): Record<SettingSource, string> {
  return {
    user: join(home, '.claude', 'settings.json'),
    project: join(projectRoot, '.claude', 'settings.json'),
    local: join(projectRoot, '.claude', 'settings.local.json'),
  };
}

/**
 * A settings file's first problem: its key path and message. An unknown key
 * under `hooks` is an event name, so the message lists the events there are.
 */
export function settingsIssue(issue: IssueLike | undefined): { keyPath: (string | number)[]; message: string } {
  if (issue === undefined) return { keyPath: [], message: 'not a settings object' };
  const keyPath = issuePath(issue);
  if (issue.code === 'unrecognized_keys' && keyPath.at(-2) === 'hooks') return { keyPath, message: `unknown hook event; the events are ${HOOK_EVENTS.join(', ')}` };
  return { keyPath, message: issueMessage(issue) };
}

/**
 * The line of a key path in JSON text: each key is looked for after the
 * previous one, which is exact for the files people write (one key per line)
 * and never worse than the line of the enclosing key.
 */
export function jsonLineOf(text: string, path: readonly (string | number)[]): number {
  let at = 0;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    const re = new RegExp(`"${escapeRegExp(key)}"\\s*:`, 'g');
    re.lastIndex = at;
    const m = re.exec(text);
    if (m === null) break;
    at = m.index;
  }
  return text.slice(0, at).split('\n').length;
}

/** What one read of a settings file gave: its text and data, or the message of what is wrong (without the file's name). */
type SettingsRead = { text: string; data: ClaudeSettings } | { problem: string } | undefined;

/** Read once per file and version (time and size): the config loader and the MCP loader both ask, a long session sees changes. */
const reads = new Map<string, SettingsRead>();

/**
 * Reads one settings file; missing is undefined, anything wrong is one
 * `FILE:LINE: key: what` error. Each file is read and checked once per
 * process (until it changes), whoever asks.
 */
export function readClaudeSettings(source: SettingSource, path: string, display: string): ClaudeSettingsFile | undefined {
  let version: string;
  try {
    const s = statSync(path);
    version = `${path}\0${s.mtimeMs}:${s.size}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    version = `${path}\0unreadable`;
  }
  let read = reads.get(version);
  if (!reads.has(version)) {
    read = readSettingsFile(path);
    reads.set(version, read);
  }
  if (read === undefined) return undefined;
  if ('problem' in read) throw new MoatError('config', `${display}${read.problem}`);
  const { text, data } = read;
  return { source, path, display, data, lineOf: (p) => jsonLineOf(text, p) };
}

function readSettingsFile(path: string): SettingsRead {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: `: cannot read: ${errorMessage(e)}` };
  }
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    // Bun names the position in its message; the line is where the parser stopped, or 1.
    const pos = /position (\d+)/.exec(errorMessage(e));
    const line = pos ? text.slice(0, Number(pos[1])).split('\n').length : 1;
    return { problem: `:${line}: not valid JSON: ${errorMessage(e)}` };
  }
  const parsed = settingsShape().safeParse(json);
  if (!parsed.success) {
    const { keyPath, message } = settingsIssue(parsed.error.issues[0]);
    return { problem: `:${jsonLineOf(text, keyPath)}: ${keyPath.length > 0 ? `${formatKeyPath(keyPath)}: ` : ''}${message}` };
  }
  return { text, data: parsed.data };
}
