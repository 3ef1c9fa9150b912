// Which project folders the user has trusted, and which of a project's MCP servers they approved: one file moat writes.
import { formatIssue } from '../contracts/index.ts';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { homeOf, once, realPathOrSelf } from '../util/index.ts';
import { claudeRecord } from './claude-record.ts';
import { moatPaths } from './paths.ts';

/**
 * A project's own files (`.claude/settings.json`, `.mcp.json`, `.moat/config.toml`)
 * may restrict at once, but may grant (allow rules, hooks, env, MCP servers) only
 * after the user said yes for that folder. A cloned repository must not be able to
 * start a program or widen its own permissions by itself, so the answer lives in
 * the user's config folder, never in the project.
 */
const projectEntryShape = () =>
  z.object({
    trusted: z.boolean().default(false),
    approvedMcpServers: z.array(z.string()).default([]),
    /** Allow rules the user gave for this folder by answering "always": honoured from its files even untrusted. */
    approvedRules: z.array(z.string()).default([]),
  });
/** Built when a trust file is read (a start-up without one builds no schema). */
const trustFileShape = once(() =>
  z.object({
    version: z.literal(1).default(1),
    projects: z.record(z.string(), projectEntryShape()).default({}),
  }),
);
type TrustFile = z.infer<ReturnType<typeof trustFileShape>>;

export interface ProjectTrust {
  trusted: boolean;
  approvedMcpServers: string[];
  approvedRules: string[];
}

export class TrustFileError extends Error {
  readonly code = 'trust_file_invalid';
}

/** `<configDir>/projects.json`. */
export function trustFilePath(configDir: string = moatPaths().configDir): string {
  return join(configDir, 'projects.json');
}

/** Projects are keyed by real path, so a symlinked checkout and its target are one project. */
const projectKey: (projectRoot: string) => string = realPathOrSelf;

function readTrustFile(file: string): TrustFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, projects: {} };
    throw e;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new TrustFileError(`${file}: not valid JSON (${(e as Error).message}); fix or delete it`);
  }
  const parsed = trustFileShape().safeParse(json);
  if (!parsed.success) {
    throw new TrustFileError(`${file}: ${formatIssue(parsed.error.issues[0])}`);
  }
  return parsed.data;
}

/** Write-then-rename, so a crash or a second moat never leaves half a file; mode 0600 because it grants. */
function writeTrustFile(file: string, data: TrustFile): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

function update(configDir: string | undefined, projectRoot: string, change: (e: ProjectTrust) => ProjectTrust): void {
  const file = trustFilePath(configDir);
  const data = readTrustFile(file);
  const key = projectKey(projectRoot);
  const before = data.projects[key] ?? { trusted: false, approvedMcpServers: [], approvedRules: [] };
  data.projects[key] = change({ trusted: before.trusted, approvedMcpServers: [...before.approvedMcpServers], approvedRules: [...before.approvedRules] });
  writeTrustFile(file, data);
}

/** What the user has granted this project. An unknown project is untrusted with no approved servers. */
export function projectTrust(projectRoot: string, configDir?: string, home: string = homeOf()): ProjectTrust {
  const entry = readTrustFile(trustFilePath(configDir)).projects[projectKey(projectRoot)];
  return {
    trusted: entry?.trusted === true || claudeCodeTrusted(projectRoot, home),
    approvedMcpServers: [...(entry?.approvedMcpServers ?? [])],
    approvedRules: [...(entry?.approvedRules ?? [])],
  };
}

/**
 * Claude Code's own record of the same answer: `hasTrustDialogAccepted` in
 * this folder's entry of `~/.claude.json`, written when the user accepted its
 * trust dialog here. The user's file, never the project's; only the folder
 * itself counts (a trusted parent folder does not trust every clone below it).
 * A missing or unreadable file trusts nothing.
 */
export function claudeCodeTrusted(projectRoot: string, home: string): boolean {
  const record = claudeRecord(home, projectRoot);
  return [...new Set([projectRoot, projectKey(projectRoot)])].some((key) => {
    const entry = record.project(key);
    return typeof entry === 'object' && entry !== null && 'hasTrustDialogAccepted' in entry && entry.hasTrustDialogAccepted === true;
  });
}

/**
 * Only whether the folder is trusted, read without building the file's schema:
 * asked at every start (before the command line is parsed, for git's status),
 * where zod's first use would cost more than the answer. Anything but a
 * well-formed `true` is untrusted; loadConfig reports a broken file.
 */
export function folderTrusted(projectRoot: string, configDir?: string, home: string = homeOf()): boolean {
  if (claudeCodeTrusted(projectRoot, home)) return true;
  try {
    const json: unknown = JSON.parse(readFileSync(trustFilePath(configDir), 'utf8'));
    const projects = typeof json === 'object' && json !== null && 'projects' in json ? json.projects : undefined;
    const entry: unknown = typeof projects === 'object' && projects !== null ? (projects as Record<string, unknown>)[projectKey(projectRoot)] : undefined;
    return typeof entry === 'object' && entry !== null && 'trusted' in entry && entry.trusted === true;
  } catch {
    return false;
  }
}

/** The user trusts this folder: its settings may grant permissions and run hooks. */
export function trustProject(projectRoot: string, configDir?: string): void {
  update(configDir, projectRoot, (e) => ({ ...e, trusted: true }));
}

/** Withdraw trust (MCP approvals are kept: they were given one by one). */
export function untrustProject(projectRoot: string, configDir?: string): void {
  update(configDir, projectRoot, (e) => ({ ...e, trusted: false }));
}

/** The user approved these project-scoped MCP servers by name; approving adds, never removes. */
export function approveMcpServers(projectRoot: string, names: string[], configDir?: string): void {
  update(configDir, projectRoot, (e) => ({
    ...e,
    approvedMcpServers: [...new Set([...e.approvedMcpServers, ...names])].sort(),
  }));
}

/**
 * The user answered "allow always" for this folder and the rules went into
 * one of its files (`.claude/settings.local.json`, `.moat/config.toml`): the
 * rules are the user's own, so they hold even before the folder is trusted.
 * Recorded here, where a repository cannot write, never in the project.
 */
export function approveRules(projectRoot: string, rules: string[], configDir?: string): void {
  update(configDir, projectRoot, (e) => ({ ...e, approvedRules: [...new Set([...e.approvedRules, ...rules])] }));
}
