/**
 * Each server's tool list from its last run, under the user's cache folder, so
 * the first request of a later run names every tool before the server has
 * connected. The live list replaces it as soon as the server answers.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../util/index.ts';
import type { McpServerConfig } from './server-config.ts';

/** What a later run needs of one tool: what mcpTool reads. */
interface CachedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations?: { title?: string; readOnlyHint?: boolean; [key: string]: unknown };
}

const optionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';

/**
 * Checked by hand, not with a zod schema: it is read on the way to the first
 * request, where building and running a schema costs more (~1-10 ms) than the
 * whole budget for a server allows. The file is moat's own; a file in another
 * shape is simply no list.
 */
function isCachedTool(v: unknown): v is CachedTool {
  if (!isRecord(v) || typeof v.name !== 'string' || v.name === '' || !optionalString(v.title) || !optionalString(v.description)) return false;
  if (!isRecord(v.inputSchema) || v.inputSchema.type !== 'object') return false;
  return v.annotations === undefined || (isRecord(v.annotations) && optionalString(v.annotations.title) && (v.annotations.readOnlyHint === undefined || typeof v.annotations.readOnlyHint === 'boolean'));
}

function entryOf(v: unknown): { key: string; serverVersion: string; tools: CachedTool[] } | undefined {
  if (!isRecord(v) || typeof v.key !== 'string' || typeof v.serverVersion !== 'string' || !Array.isArray(v.tools) || v.tools.length > 10_000) return undefined;
  const tools: unknown[] = v.tools;
  return tools.every(isCachedTool) ? { key: v.key, serverVersion: v.serverVersion, tools } : undefined;
}

export interface CachedToolList {
  /** The version the server gave in initialize when the list was read. */
  serverVersion: string;
  tools: McpTool[];
}

export interface ToolListCache {
  get(config: McpServerConfig): CachedToolList | undefined;
  /** Saves the server's live list (when it differs from what is saved). */
  put(config: McpServerConfig, serverVersion: string, tools: readonly McpTool[]): void;
}

/**
 * What makes two configs the same server: the command, its arguments and
 * working folder and the names (not values) of its environment — a token
 * changed in place keeps the list; a URL and header names for a remote one.
 * A server of the driving program is never cached: it is the program's own and
 * connects in milliseconds.
 */
export function cacheKey(config: McpServerConfig): string | undefined {
  if (config.transport === 'sdk') return undefined;
  if (config.transport === 'stdio') {
    return JSON.stringify({ transport: 'stdio', command: config.command, args: config.args, cwd: config.cwd ?? null, env: Object.keys(config.env).sort() });
  }
  return JSON.stringify({ transport: config.transport, url: config.url, headers: Object.keys(config.headers).sort(), bearer: config.bearerTokenEnvVar ?? null });
}

/** One file per server (named by a hash of its key), so runs with different servers never write the same file. */
export function fileToolListCache(dir: string): ToolListCache {
  const folder = join(dir, 'mcp-tools');
  // Bun's hash needs no import; the key inside the file is what decides.
  const fileOf = (key: string): string => join(folder, `${Bun.hash(key).toString(16)}.json`);
  const saved = new Map<string, string>();
  return {
    get(config) {
      const key = cacheKey(config);
      if (key === undefined) return undefined;
      let text: string;
      try {
        text = readFileSync(fileOf(key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const entry = entryOf(JSON.parse(text));
        // A file for another key (a hash collision) or in an old shape is no list at all: the server's own answer replaces it.
        if (entry === undefined || entry.key !== key) return undefined;
        saved.set(key, `${entry.serverVersion}\n${JSON.stringify(entry.tools)}`);
        return { serverVersion: entry.serverVersion, tools: entry.tools as McpTool[] };
      } catch {
        return undefined;
      }
    },
    put(config, serverVersion, tools) {
      const key = cacheKey(config);
      if (key === undefined) return;
      const kept = tools.map(({ name, title, description, inputSchema, annotations }) => ({
        name,
        ...(title === undefined ? {} : { title }),
        ...(description === undefined ? {} : { description }),
        inputSchema,
        ...(annotations === undefined ? {} : { annotations }),
      }));
      const json = JSON.stringify(kept);
      if (saved.get(key) === `${serverVersion}\n${json}`) return;
      saved.set(key, `${serverVersion}\n${json}`);
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const file = fileOf(key);
        // Written whole, then renamed: a run reading it at the same time sees the old list or the new one.
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify({ key, serverVersion, tools: kept }), { mode: 0o600 });
        renameSync(temp, file);
      } catch {
        // A cache that cannot be written only costs the next run its head start.
      }
    },
  };
}
