/** `moat mcp serve`: moat as an MCP server for other agents, a client of the session protocol. */
export { moatMcpServer, type ServeDeps } from './mcp-server.ts';
export { serveHttp, serveStdio, type HttpServing } from './transports.ts';
export type { OpenTask, TaskSession } from './run-task.ts';
export { toolRunner, type ExposedTool, type ToolCallResult, type ToolHost } from './builtin-tools.ts';
