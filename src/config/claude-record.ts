/**
 * Claude Code's own record of the user, `~/.claude.json`, read once per
 * process for every part of moat that asks (folder trust, MCP servers, MCP
 * approvals). The file grows with Claude Code's history to megabytes: it is
 * parsed only when it could say something moat uses, and only those parts
 * are kept.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, realPathOrSelf } from '../util/index.ts';

/** What moat takes from `~/.claude.json` for one project folder. */
export interface ClaudeRecord {
  /** The file exists (a broken one too). */
  exists: boolean;
  /** Why it could not be used (`cannot read: …`, `not valid JSON: …`); the rest is then empty. */
  error?: string;
  /** The top level's `mcpServers` (the user's servers in Claude Code), as written. */
  mcpServers: unknown;
  /** This folder's entry under `projects`, by its path as given and as resolved (Claude Code writes the real path). */
  project(key: string): unknown;
}

const EMPTY: ClaudeRecord = { exists: false, mcpServers: undefined, project: () => undefined };

const SPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);
const MCP_SERVERS = Buffer.from('"mcpServers"');
/** Bytes read at a time while scanning: a buffer this size stays in the CPU's cache (reading 3 MB whole took ~25 ms here, in chunks ~3 ms). */
const CHUNK = 256 * 1024;
/** Bytes carried from one chunk to the next, so a key or `"mcpServers": {}` cut by a chunk's end is still seen whole. */
const OVERLAP = 256;

/**
 * Whether the `"mcpServers"` key at `at` holds anything but an empty object:
 * Claude Code writes `"mcpServers": {}` into every project's entry, so the key
 * alone says nothing. Undefined when the window ends before that is known.
 */
function serversAt(bytes: Buffer, at: number): boolean | undefined {
  let i = at + MCP_SERVERS.length;
  const skip = (): void => {
    while (i < bytes.length && SPACE.has(bytes[i] as number)) i++;
  };
  skip();
  if (i >= bytes.length) return undefined;
  // Not a key (the word inside a string): nothing here.
  if (bytes[i] !== 0x3a) return false;
  i++;
  skip();
  if (i >= bytes.length) return undefined;
  if (bytes[i] !== 0x7b) return true;
  i++;
  skip();
  if (i >= bytes.length) return undefined;
  return bytes[i] !== 0x7d;
}

/**
 * Whether the file could say something moat uses: some server anywhere, or
 * this folder named. A byte scan in chunks, nothing decoded; a cut-off case
 * counts as yes (the parser then decides).
 */
function worthParsing(file: string, keys: readonly string[]): boolean {
  const needles = keys.map((k) => Buffer.from(JSON.stringify(k)));
  // A folder's path longer than the usual overlap is still carried whole.
  const overlap = Math.max(OVERLAP, ...needles.map((k) => k.length + MCP_SERVERS.length));
  const fd = openSync(file, 'r');
  try {
    const window = Buffer.allocUnsafe(overlap + CHUNK);
    let carried = 0;
    for (;;) {
      const n = readSync(fd, window, carried, CHUNK, null);
      const end = carried + n;
      const seen = window.subarray(0, end);
      if (needles.some((k) => seen.includes(k))) return true;
      for (let at = seen.indexOf(MCP_SERVERS); at !== -1; at = seen.indexOf(MCP_SERVERS, at + MCP_SERVERS.length)) {
        const servers = serversAt(seen, at);
        // Cut off by the window: decided in the next one (the key is in the carried bytes), or yes at the end of the file.
        if (servers === true || (servers === undefined && (n === 0 || at < end - overlap))) return true;
      }
      if (n === 0) return false;
      carried = Math.min(overlap, end);
      window.copy(window, 0, end - carried, end);
    }
  } finally {
    closeSync(fd);
  }
}

function read(file: string, keys: readonly string[]): ClaudeRecord {
  let text: string;
  try {
    // Nothing for moat in it (no server anywhere, this folder not named): not read whole, not parsed.
    if (!worthParsing(file, keys)) return { ...EMPTY, exists: true };
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY;
    return { ...EMPTY, exists: true, error: `cannot read: ${errorMessage(e)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ...EMPTY, exists: true, error: `not valid JSON: ${errorMessage(e)}` };
  }
  const top = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const projects = typeof top.projects === 'object' && top.projects !== null ? (top.projects as Record<string, unknown>) : {};
  // Only this folder's entries are kept: the rest (other projects' history) is let go at once.
  const entries = new Map(keys.map((k) => [k, projects[k]]));
  return { exists: true, mcpServers: top.mcpServers, project: (key) => entries.get(key) };
}

/** Read once per file, folder and version (time and size): start-up asks several times, a long session sees its changes. */
const records = new Map<string, ClaudeRecord>();

/** `~/.claude.json` as it concerns `projectRoot`; a missing file is an empty record. */
export function claudeRecord(home: string, projectRoot: string): ClaudeRecord {
  const file = join(home, '.claude.json');
  let version: string;
  try {
    const s = statSync(file);
    version = `${s.mtimeMs}:${s.size}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY;
    version = 'unreadable';
  }
  const key = `${file}\0${projectRoot}\0${version}`;
  let record = records.get(key);
  if (record === undefined) {
    record = read(file, [...new Set([projectRoot, realPathOrSelf(projectRoot)])]);
    records.set(key, record);
  }
  return record;
}
