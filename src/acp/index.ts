/** `moat acp`: moat as an Agent Client Protocol agent for editors (Zed, JetBrains, Neovim), a client of the session protocol. */
export { acpAgent, serveAcp, type AcpDeps, type AcpOpenRequest, type AcpSession, type ClientFiles } from './agent-server.ts';
export type { ClientTerminal, ClientTerminals, TerminalCommand, TerminalExit, TerminalOutput } from './client-terminals.ts';
export { ndJsonStream, type McpServer, type Stream } from '@agentclientprotocol/sdk';
