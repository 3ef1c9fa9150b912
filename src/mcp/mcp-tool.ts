// One tool of an MCP server → one moat Tool named mcp__<server>__<tool>, its schema passed through as the server gave it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool, ToolError, type AnyTool } from '../tools/index.ts';
import { sessionResultsDir } from '../config/index.ts';
import { errorMessage } from '../util/index.ts';
import type { McpConnection } from './connection.ts';
import { needsLogin } from './http-errors.ts';
import { normalizeServerName } from './server-config.ts';
import { mapToolResult, type ResultSaver } from './tool-result.ts';

/** Anthropic's limit for a tool name; longer names are cut and given a short hash so two never collide. */
const MAX_NAME = 64;


function shortHash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36).slice(0, 6);
}

/** `mcp__<server>__<tool>`, the name the model calls and permission rules match (`mcp__github`, `mcp__github__*`). */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${normalizeServerName(server)}__${normalizeServerName(tool)}`;
  if (name.length <= MAX_NAME) return name;
  return `${name.slice(0, MAX_NAME - 7)}_${shortHash(name)}`;
}

const ARGUMENTS = z.record(z.string(), z.unknown());

function summaryOf(server: string, tool: string, input: Record<string, unknown>): string {
  const args = JSON.stringify(input);
  const line = `${server}: ${tool} ${args === '{}' ? '' : args}`.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** What a tool calls: a connected server, or one still connecting (its list from the last run) that the call waits for. */
export type ToolTarget = Pick<McpConnection, 'config' | 'callTool'> & Partial<Pick<McpConnection, 'takeModelNotice'>>;

/**
 * Files for one call's saved output, in `<resultsDir>/<session>/`: private
 * to the user, named after the call so two never collide.
 */
function callSaver(resultsDir: string, sessionId: string, toolUseId: string): ResultSaver {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  return {
    save(suffix, data) {
      const dir = sessionResultsDir(resultsDir, sessionId);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${safe(toolUseId)}-${suffix}`);
      writeFileSync(file, data, { mode: 0o600 });
      return file;
    },
  };
}

/** `resultsDir`: where results too big for the model, and binary parts, are saved; none: they are cut or described. */
export function mcpTool(connection: ToolTarget, def: McpTool, resultsDir?: string): AnyTool {
  const server = connection.config.name;
  const name = mcpToolName(server, def.name);
  const readOnly = connection.config.trustAnnotations && def.annotations?.readOnlyHint === true;
  const title = def.annotations?.title ?? def.title;
  const description = `${title !== undefined && title !== def.name ? `${title}. ` : ''}${def.description ?? ''}`.trim() || `Tool ${def.name} of the MCP server ${server}.`;
  return defineTool({
    name,
    description,
    inputSchema: ARGUMENTS,
    jsonSchema: def.inputSchema as Record<string, unknown>,
    keywords: [server, def.name, 'mcp'],
    // A server's tool can do anything its server can: it asks unless allowed, like Bash.
    // Only a user who trusts the server's annotations lets readOnlyHint lower it.
    effect: readOnly ? 'read' : 'execute',
    intent: (input) => ({ ruleName: name, paths: [], summary: summaryOf(server, def.name, input) }),
    execute: async (input, ctx) => {
      let result;
      try {
        result = await connection.callTool(def.name, input, {
          signal: ctx.signal,
          toolUseId: ctx.toolUseId,
          onProgress: (progress, total, message) => {
            // As Claude Code shows it: a share when the server gives a total, the count otherwise; its message after.
            const of = total === undefined || total <= 0 ? `${progress}` : `${Math.round(Math.min(1, progress / total) * 100)}%`;
            ctx.onUpdate({ type: 'text', text: `${of}${message === undefined ? '' : ` · ${message}`}` });
          },
        });
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        // A session never opens a browser by itself: the user logs in again (with the scope the server asked for).
        if (needsLogin(e)) throw new ToolError(`${name} failed: the server wants a new login; the user can run moat mcp login ${server}`);
        const notice = connection.takeModelNotice?.();
        throw new ToolError(`${name} failed: ${errorMessage(e)}${notice === undefined ? '' : `\n${notice}`}`);
      }
      const saver = resultsDir === undefined ? undefined : callSaver(resultsDir, ctx.sessionId, ctx.toolUseId);
      const mapped = mapToolResult(result, { tool: name, maxTokens: connection.config.maxOutputTokens, ...(saver === undefined ? {} : { saver }) });
      const notice = connection.takeModelNotice?.();
      if (notice === undefined) return mapped;
      return { ...mapped, content: typeof mapped.content === 'string' ? `${notice}\n${mapped.content}` : [{ type: 'text', text: notice }, ...mapped.content] };
    },
  }) as unknown as AnyTool;
}
