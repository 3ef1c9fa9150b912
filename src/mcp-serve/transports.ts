/** Where `moat mcp serve` listens: stdin/stdout, or Streamable HTTP on a loopback port. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { moatMcpServer, type ServeDeps } from './mcp-server.ts';

/** Serves one client on stdin/stdout until it closes the connection; calls still running are cancelled and their sessions closed. */
export async function serveStdio(deps: ServeDeps): Promise<void> {
  const { server, settled } = moatMcpServer(deps);
  const closed = new Promise<void>((done) => {
    server.server.onclose = () => done();
  });
  await server.connect(new StdioServerTransport());
  // The client closing stdin (or stopping moat) ends the connection: the SDK then aborts the calls under way.
  const stop = () => void server.close();
  process.stdin.once('end', stop);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await closed;
    await settled();
  } finally {
    process.stdin.off('end', stop);
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

export interface HttpServing {
  url: string;
  stop(): Promise<void>;
}

/**
 * Streamable HTTP at `http://127.0.0.1:<port>/mcp`, stateless: each request
 * gets its own server (a task's progress streams back on its own response).
 * Only loopback Host and Origin headers are accepted, so a web page cannot
 * reach it through DNS rebinding.
 */
export function serveHttp(deps: ServeDeps, port: number): HttpServing {
  const http = Bun.serve({
    hostname: '127.0.0.1',
    port,
    idleTimeout: 0,
    fetch: async (request) => {
      if (new URL(request.url).pathname !== '/mcp') return new Response('moat serves MCP at /mcp\n', { status: 404 });
      const hosts = [`127.0.0.1:${http.port}`, `localhost:${http.port}`];
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableDnsRebindingProtection: true,
        allowedHosts: hosts,
        allowedOrigins: hosts.map((h) => `http://${h}`),
      });
      await moatMcpServer(deps).server.connect(transport);
      return transport.handleRequest(request);
    },
  });
  return { url: `http://127.0.0.1:${http.port}/mcp`, stop: () => http.stop(true) };
}
