/** The `moat mcp …` subcommands: parsing only, each action calls its handler. */
import { Option, type Command } from 'commander';
import { collect } from './option-values.ts';
import type { McpServeOptions } from './mcp-serve-command.ts';

export interface McpAddOptions {
  transport?: 'stdio' | 'http' | 'sse';
  scope?: 'user' | 'project';
  env?: string[];
  header?: string[];
  cwd?: string;
}

/** The `moat mcp …` actions. */
export interface McpHandlers {
  mcpAdd(name: string, target: string | undefined, rest: string[], opts: McpAddOptions): Promise<number>;
  mcpAddJson(name: string, json: string, opts: { scope?: 'user' | 'project'; cwd?: string }): Promise<number>;
  mcpRemove(name: string, opts: { scope?: 'user' | 'project'; cwd?: string }): Promise<number>;
  mcpList(opts: { cwd?: string }): Promise<number>;
  mcpGet(name: string, opts: { cwd?: string }): Promise<number>;
  mcpLogin(name: string, opts: { cwd?: string }): Promise<number>;
  mcpLogout(name: string, opts: { cwd?: string }): Promise<number>;
  mcpApprove(names: string[], opts: { cwd?: string }): Promise<number>;
  mcpServe(opts: { port?: string; cwd?: string }): Promise<number>;
}

const cwdOption = ['--cwd <dir>', 'project folder (default: the current folder)'] as const;

export function registerMcpCommand(program: Command, handlers: McpHandlers, setExit: (code: number) => void): void {
  const mcp = program.command('mcp').description('MCP servers: add, list, get, remove, login, logout, approve; serve moat as one');
  mcp
    .command('add <name> [target] [args...]')
    .description('add a server: moat mcp add <name> -- <command> [args…], or --transport http <name> <url>')
    .addOption(new Option('-t, --transport <transport>', 'stdio (default), http or sse').choices(['stdio', 'http', 'sse']))
    .addOption(new Option('-s, --scope <scope>', 'user (~/.config/moat/config.toml, default) or project (.mcp.json)').choices(['user', 'project']))
    .option('-e, --env <NAME=VALUE>', 'an environment variable for a local server (repeatable)', collect)
    .option('-H, --header <Name: value>', 'an HTTP header for a remote server (repeatable)', collect)
    .option(...cwdOption)
    .action(async (name: string, target: string | undefined, rest: string[], opts: McpAddOptions) => setExit(await handlers.mcpAdd(name, target, rest, opts)));
  mcp
    .command('add-json <name> <json>')
    .description('add a server from its JSON entry as in .mcp.json (or - to read it from stdin), as claude mcp add-json does')
    .addOption(new Option('-s, --scope <scope>', 'user (~/.config/moat/config.toml, default) or project (.mcp.json)').choices(['user', 'project']))
    .option(...cwdOption)
    .action(async (name: string, json: string, opts: { scope?: 'user' | 'project'; cwd?: string }) => setExit(await handlers.mcpAddJson(name, json, opts)));
  mcp
    .command('list')
    .description('every server: status, tool count, transport, sandboxed or not')
    .option(...cwdOption)
    .action(async (opts: { cwd?: string }) => setExit(await handlers.mcpList(opts)));
  mcp
    .command('get <name>')
    .description("one server's details and tools")
    .option(...cwdOption)
    .action(async (name: string, opts: { cwd?: string }) => setExit(await handlers.mcpGet(name, opts)));
  mcp
    .command('remove <name>')
    .description('remove a server from the user config (or --scope project: .mcp.json)')
    .addOption(new Option('-s, --scope <scope>', 'user (default) or project').choices(['user', 'project']))
    .option(...cwdOption)
    .action(async (name: string, opts: { scope?: 'user' | 'project'; cwd?: string }) => setExit(await handlers.mcpRemove(name, opts)));
  mcp
    .command('login <name>')
    .description('log in to a remote server (OAuth in the browser; the URL is printed too)')
    .option(...cwdOption)
    .action(async (name: string, opts: { cwd?: string }) => setExit(await handlers.mcpLogin(name, opts)));
  mcp
    .command('logout <name>')
    .description("forget a remote server's tokens")
    .option(...cwdOption)
    .action(async (name: string, opts: { cwd?: string }) => setExit(await handlers.mcpLogout(name, opts)));
  mcp
    .command('serve')
    .description('serve moat as an MCP server: a moat tool (and moat_reply) other agents call; stdio, or Streamable HTTP on 127.0.0.1 with --port')
    .option('--port <port>', 'serve Streamable HTTP at http://127.0.0.1:<port>/mcp instead of stdio (0: a free port)')
    .option('--cwd <dir>', 'where tasks run when a call names no folder (default: the current folder)')
    .option('--tools', "also offer moat's own tools (Read, Grep, Glob, Edit, Write, Bash…), each call under the mode and rules below; what would be asked is denied")
    .option('--permission-mode <mode>', 'with --tools: default (ask = deny), acceptEdits, plan or bypassPermissions')
    .option('--allowed-tools <rules...>', 'with --tools: rules that allow calls, e.g. Edit "Bash(npm test)"')
    .option('--disallowed-tools <rules...>', 'with --tools: rules that deny calls')
    .action(async (opts: McpServeOptions) => setExit(await handlers.mcpServe(opts)));
  mcp
    .command('approve [names...]')
    .description("let this project's servers (.mcp.json, .moat/config.toml) start; all pending ones without names")
    .option(...cwdOption)
    .action(async (names: string[], opts: { cwd?: string }) => setExit(await handlers.mcpApprove(names, opts)));
}
