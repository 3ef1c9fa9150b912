// A small stdio MCP server on the real SDK whose one tool fetches a URL (Bun's fetch honours HTTPS_PROXY, as npm and curl do).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'fetcher', version: '1.0.0' });
server.registerTool('fetch_url', { description: 'Fetches a URL and says its status', inputSchema: { url: z.string() } }, async ({ url }) => {
  try {
    const res = await fetch(url);
    return { content: [{ type: 'text', text: `status ${res.status}` }] };
  } catch (e) {
    return { isError: true, content: [{ type: 'text', text: `fetch failed: ${e instanceof Error ? e.message : String(e)}` }] };
  }
});
await server.connect(new StdioServerTransport());
