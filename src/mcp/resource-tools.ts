// The model's two resource tools (Claude Code's names): list the servers' resources, and read one by server and URI.
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool, ToolError, type AnyTool } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';
import type { McpConnection } from './connection.ts';
import { mapToolResult } from './tool-result.ts';

export const LIST_RESOURCES_TOOL = 'ListMcpResourcesTool';
export const READ_RESOURCE_TOOL = 'ReadMcpResourceTool';

interface Connections {
  connected(): McpConnection[];
  get(name: string): McpConnection | undefined;
}

/** A resource read as a tool result: text as text, images as images, other blobs described. */
export function resourceContent(result: ReadResourceResult, maxTokens: number, tool: string): ReturnType<typeof mapToolResult> {
  return mapToolResult({ content: result.contents.map((resource) => ({ type: 'resource' as const, resource })) }, { tool, maxTokens });
}

export function resourceTools(servers: Connections): AnyTool[] {
  const list = defineTool({
    name: LIST_RESOURCES_TOOL,
    description:
      'List the resources (files, records, documents) that connected MCP servers offer, as server, URI, name and type. Read one with ReadMcpResourceTool.',
    inputSchema: z.strictObject({ server: z.string().optional().describe('Only this server') }),
    effect: 'read',
    intent: (input) => ({ ruleName: LIST_RESOURCES_TOOL, ...(input.server === undefined ? {} : { subject: input.server }), paths: [], summary: `list MCP resources${input.server === undefined ? '' : ` of ${input.server}`}` }),
    execute: async (input) => {
      const conns = servers.connected().filter((c) => input.server === undefined || c.config.name === input.server);
      if (input.server !== undefined && conns.length === 0) throw new ToolError(`No connected MCP server is called ${input.server}. Call ${LIST_RESOURCES_TOOL} without a server to see them all.`);
      const rows = conns.flatMap((c) => c.resources.map((r) => ({ server: c.config.name, uri: r.uri, name: r.name, mimeType: r.mimeType, description: r.description })));
      return { content: rows.length === 0 ? 'No MCP server offers resources.' : JSON.stringify(rows, null, 1), display: { type: 'text', text: `${rows.length} resources` } };
    },
  }) as unknown as AnyTool;
  const read = defineTool({
    name: READ_RESOURCE_TOOL,
    description: 'Read one resource of an MCP server by its URI (from ListMcpResourcesTool).',
    inputSchema: z.strictObject({ server: z.string().min(1).describe('The MCP server'), uri: z.string().min(1).describe('The resource URI') }),
    effect: 'read',
    intent: (input) => ({ ruleName: READ_RESOURCE_TOOL, subject: `${input.server}:${input.uri}`, paths: [], summary: `read ${input.server}:${input.uri}` }),
    execute: async (input, ctx) => {
      const conn = servers.get(input.server);
      if (conn === undefined || conn.state.status !== 'connected') throw new ToolError(`MCP server ${input.server} is not connected. Call ${LIST_RESOURCES_TOOL} to see the servers that are.`);
      let result: ReadResourceResult;
      try {
        result = await conn.readResource(input.uri, ctx.signal);
      } catch (e) {
        throw new ToolError(`Reading ${input.uri} from ${input.server} failed: ${errorMessage(e)}`);
      }
      return resourceContent(result, conn.config.maxOutputTokens, READ_RESOURCE_TOOL);
    },
  }) as unknown as AnyTool;
  return [list, read];
}
