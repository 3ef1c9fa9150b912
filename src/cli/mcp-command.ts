/** `moat mcp add|list|get|remove|login|logout`: MCP servers as a user manages them. */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'smol-toml';
import pkg from '../../package.json' with { type: 'json' };
import { loadConfig, projectTrust, moatPaths, approveMcpServers, type LoadedConfig } from '../config/index.ts';
import { login, logout, McpManager, SERVER_NAME, serverLoader, type McpServerConfig, type ServerStatus } from '../mcp/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { oauthStore, mcpAuthProvider } from './mcp-auth.ts';
import { loadMcpServers, mcpSandbox } from './mcp-setup.ts';
import type { McpAddOptions } from './mcp-program.ts';
import { err, out } from './write-out.ts';

const env = process.env;


function context(cwdFlag: string | undefined): { loaded: LoadedConfig; cwd: string } {
  const cwd = resolve(cwdFlag ?? process.cwd());
  return { loaded: loadConfig({ cwd, env }), cwd };
}

function servers(cwdFlag: string | undefined) {
  const { loaded, cwd } = context(cwdFlag);
  const result = loadMcpServers({ loaded, env, cwd, flags: { configs: [], strict: false } });
  return { ...result, loaded, cwd };
}

function find(list: readonly McpServerConfig[], name: string): McpServerConfig {
  const s = list.find((x) => x.name === name);
  if (s === undefined) {
    const names = list.map((x) => x.name);
    throw new MoatError('not_found', `no MCP server called ${name}${names.length > 0 ? ` (there are: ${names.join(', ')})` : ' (none is configured: moat mcp add)'}`);
  }
  return s;
}

function pairs(items: readonly string[] | undefined, sep: string, what: string): Record<string, string> {
  const outMap: Record<string, string> = {};
  for (const item of items ?? []) {
    const at = item.indexOf(sep);
    if (at <= 0) throw new MoatError('usage', `${what} "${item}": expected NAME${sep}VALUE`);
    outMap[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return outMap;
}

/** A `[mcp_servers.<name>]` table appended to a TOML file (the rest of the file, comments included, is kept). */
function appendTomlServer(file: string, name: string, table: Record<string, unknown>): void {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  mkdirSync(dirname(file), { recursive: true });
  // Stringified whole: its env or http_headers become [mcp_servers.<name>.env], not a top-level [env] table.
  const body = stringify({ mcp_servers: { [name]: table } });
  writeFileSync(file, `${before}${before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n'}${body}\n`);
}

/** Removes `[mcp_servers.<name>]` and its sub-tables from TOML text; undefined when the server is not written as tables. */
export function removeTomlServer(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/;
  const own = (key: string): boolean => key === `mcp_servers.${name}` || key.startsWith(`mcp_servers.${name}.`) || key === `mcp_servers."${name}"` || key.startsWith(`mcp_servers."${name}".`);
  let removing = false;
  let found = false;
  const kept: string[] = [];
  for (const line of lines) {
    const m = header.exec(line);
    if (m !== null) removing = own(m[1] as string);
    if (removing) found = true;
    else kept.push(line);
  }
  return found ? kept.join('\n').replace(/\n{3,}/g, '\n\n') : undefined;
}

function readMcpJson(file: string): { mcpServers: Record<string, unknown> } & Record<string, unknown> {
  if (!existsSync(file)) return { mcpServers: {} };
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return { ...json, mcpServers: (json.mcpServers as Record<string, unknown> | undefined) ?? {} };
  } catch (e) {
    throw new MoatError('config', `${file}: not valid JSON: ${errorMessage(e)}`);
  }
}

async function mcpAdd(name: string, target: string | undefined, rest: string[], opts: McpAddOptions): Promise<number> {
  if (!SERVER_NAME.test(name)) throw new MoatError('usage', `"${name}" is not a server name: letters, digits, _ and - (it becomes part of tool names)`);
  const transport = opts.transport ?? 'stdio';
  const scope = opts.scope ?? 'user';
  const { loaded } = context(opts.cwd);
  const vars = pairs(opts.env, '=', '--env');
  const headers = pairs(opts.header, ':', '--header');
  if (target === undefined) throw new MoatError('usage', transport === 'stdio' ? 'moat mcp add <name> -- <command> [args…]' : `moat mcp add --transport ${transport} <name> <url>`);
  if (transport !== 'stdio') {
    try {
      const u = new URL(target);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw new MoatError('usage', `${target}: not an http:// or https:// URL`);
    }
  }
  if (scope === 'project') {
    const file = join(loaded.projectRoot, '.mcp.json');
    const json = readMcpJson(file);
    if (name in json.mcpServers) throw new MoatError('usage', `${name} is already in ${file}: moat mcp remove ${name} --scope project first`);
    json.mcpServers[name] =
      transport === 'stdio'
        ? { command: target, args: rest, ...(Object.keys(vars).length > 0 ? { env: vars } : {}) }
        : { type: transport, url: target, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    // The user added it themselves: approved for this folder.
    approveMcpServers(loaded.projectRoot, [name], moatPaths(env).configDir);
    out(`Added ${name} to ${file}\n`);
    return 0;
  }
  const file = loaded.files.user;
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (removeTomlServer(existing, name) !== undefined) throw new MoatError('usage', `${name} is already in ${file}: moat mcp remove ${name} first`);
  const table: Record<string, unknown> =
    transport === 'stdio'
      ? { command: target, args: rest, ...(Object.keys(vars).length > 0 ? { env: vars } : {}) }
      : { url: target, ...(transport === 'sse' ? { transport: 'sse' } : {}), ...(Object.keys(headers).length > 0 ? { http_headers: headers } : {}) };
  appendTomlServer(file, name, table);
  out(`Added ${name} to ${file}\n`);
  return 0;
}

/** What `claude mcp add-json` reads from stdin at most. */
const STDIN_LIMIT = 1024 * 1024;

async function jsonText(arg: string): Promise<string> {
  if (arg !== '-') return arg;
  const text = await Bun.stdin.text();
  if (text.length > STDIN_LIMIT) throw new MoatError('usage', 'the JSON on stdin is over the limit of 1 MiB');
  if (text.trim() === '') throw new MoatError('usage', 'there is no JSON on stdin: pipe it in, or pass it as the argument');
  return text;
}

/**
 * `moat mcp add-json <name> <json>` (or `-`: the JSON on stdin), as `claude
 * mcp add-json`: one Claude Code server entry, checked by the same schema as
 * `.mcp.json`'s. `--scope project` writes it to `.mcp.json` as given; the
 * user scope writes the same server as a `[mcp_servers.<name>]` table.
 */
async function mcpAddJson(name: string, json: string, opts: { scope?: 'user' | 'project'; cwd?: string }): Promise<number> {
  if (!SERVER_NAME.test(name)) throw new MoatError('usage', `"${name}" is not a server name: letters, digits, _ and - (it becomes part of tool names)`);
  let raw: unknown;
  try {
    raw = JSON.parse(await jsonText(json));
  } catch (e) {
    if (e instanceof MoatError) throw e;
    throw new MoatError('usage', `mcp add-json ${name}: not valid JSON: ${errorMessage(e)}`);
  }
  let entry;
  try {
    entry = serverLoader().parseClaudeEntry(raw);
  } catch (e) {
    throw new MoatError('usage', `mcp add-json ${name}: ${errorMessage(e)}`);
  }
  const { loaded } = context(opts.cwd);
  if (opts.scope === 'project') {
    const file = join(loaded.projectRoot, '.mcp.json');
    const mcpJson = readMcpJson(file);
    if (name in mcpJson.mcpServers) throw new MoatError('usage', `${name} is already in ${file}: moat mcp remove ${name} --scope project first`);
    mcpJson.mcpServers[name] = raw;
    writeFileSync(file, `${JSON.stringify(mcpJson, null, 2)}\n`);
    approveMcpServers(loaded.projectRoot, [name], moatPaths(env).configDir);
    out(`Added ${name} to ${file}\n`);
    return 0;
  }
  // config.toml's tables take values as written: a `${VAR}` there would reach the server as those characters.
  if (JSON.stringify(entry).includes('${')) {
    throw new MoatError('usage', `mcp add-json ${name}: \${VAR} is expanded in .mcp.json entries only: add it with --scope project, or write the value`);
  }
  const file = loaded.files.user;
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (removeTomlServer(existing, name) !== undefined) throw new MoatError('usage', `${name} is already in ${file}: moat mcp remove ${name} first`);
  const table: Record<string, unknown> =
    'command' in entry
      ? { command: entry.command, args: entry.args, ...(Object.keys(entry.env).length > 0 ? { env: entry.env } : {}), ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }) }
      : { url: entry.url, ...(entry.type === 'sse' ? { transport: 'sse' } : {}), ...(Object.keys(entry.headers).length > 0 ? { http_headers: entry.headers } : {}) };
  appendTomlServer(file, name, table);
  out(`Added ${name} to ${file}\n`);
  return 0;
}

async function mcpRemove(name: string, opts: { scope?: 'user' | 'project'; cwd?: string }): Promise<number> {
  const { loaded } = context(opts.cwd);
  const scope = opts.scope ?? 'user';
  if (scope === 'project') {
    const file = join(loaded.projectRoot, '.mcp.json');
    const json = readMcpJson(file);
    if (!(name in json.mcpServers)) throw new MoatError('not_found', `${name} is not in ${file}`);
    delete json.mcpServers[name];
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    out(`Removed ${name} from ${file}\n`);
    return 0;
  }
  const file = loaded.files.user;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const next = removeTomlServer(text, name);
  if (next === undefined) throw new MoatError('not_found', `${name} is not a [mcp_servers.${name}] table in ${file}${scope === 'user' ? ' (a project server: --scope project)' : ''}`);
  writeFileSync(file, next);
  out(`Removed ${name} from ${file}\n`);
  return 0;
}

function stateText(s: ServerStatus): string {
  switch (s.state.status) {
    case 'failed':
      return `failed: ${s.state.error}`;
    case 'needs-auth':
      return s.state.error;
    case 'needs-approval':
      return 'needs approval (a project server)';
    default:
      return s.state.status;
  }
}

function sandboxText(s: ServerStatus): string {
  if (s.transport !== 'stdio') return 'remote';
  if (s.sandboxed === undefined) return '-';
  return s.sandboxed ? 'sandboxed' : `NOT sandboxed${s.unsandboxedReason === undefined ? '' : ` (${s.unsandboxedReason})`}`;
}

/** Connects to every enabled, approved server (in parallel), for list and get. */
async function connectAll(cwdFlag: string | undefined): Promise<{ manager: McpManager; problems: string[] }> {
  const loaded = servers(cwdFlag);
  const manager = new McpManager(loaded.servers, {
    launch: { cwd: loaded.cwd, env, sandbox: mcpSandbox(loaded.loaded, env) },
    roots: [loaded.cwd],
    clientVersion: pkg.version,
    needsApproval: loaded.needsApproval,
    authProvider: (server) => mcpAuthProvider(server, env),
  });
  manager.startAll();
  await manager.settled();
  return { manager, problems: loaded.problems };
}

async function mcpList(opts: { cwd?: string }): Promise<number> {
  const { manager, problems } = await connectAll(opts.cwd);
  try {
    for (const p of problems) err(`moat: MCP: ${p}\n`);
    const list = manager.status();
    if (list.length === 0) {
      out('No MCP servers. Add one with: moat mcp add <name> -- <command> [args…]\n');
      return 0;
    }
    for (const s of list) {
      out(`${s.name}  ${stateText(s)}  ${s.tools.length} tools  ${s.transport}  ${sandboxText(s)}  ${s.scope} (${s.origin})\n`);
    }
    return 0;
  } finally {
    await manager.close();
  }
}

async function mcpGet(name: string, opts: { cwd?: string }): Promise<number> {
  const { manager } = await connectAll(opts.cwd);
  try {
    const s = manager.status().find((x) => x.name === name);
    const c = manager.config(name);
    if (s === undefined || c === undefined) throw new MoatError('not_found', `no MCP server called ${name}`);
    out(`${name}\n  status: ${stateText(s)}\n  scope: ${s.scope} (${s.origin})\n  transport: ${s.transport}\n`);
    if (c.transport === 'stdio') {
      out(`  command: ${[c.command, ...c.args].join(' ')}\n  sandbox: ${sandboxText(s)}; writes: its temp folder${c.sandbox.allowWrite.map((p) => `, ${p}`).join('')}; network: ${c.sandbox.networkAllow.length === 0 ? 'none' : c.sandbox.networkAllow.join(', ')}\n`);
    } else if (c.transport !== 'sdk') {
      out(`  url: ${c.url}\n`);
    }
    out(`  tools (${s.tools.length}): ${s.tools.join(', ') || '-'}\n  prompts (${s.prompts.length}): ${s.prompts.join(', ') || '-'}\n  resources: ${s.resources}\n`);
    return 0;
  } finally {
    await manager.close();
  }
}

/** Opens a URL in the browser when there is one; the URL is always printed too. */
function openBrowser(url: URL): void {
  err(`Open this URL to log in:\n  ${url.href}\n`);
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return;
  try {
    const child = spawn(opener, [url.href], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser: the printed URL is the way.
  }
}

function remote(name: string, cwdFlag: string | undefined): Extract<McpServerConfig, { url: string }> {
  const s = find(servers(cwdFlag).servers, name);
  if (s.transport === 'stdio' || s.transport === 'sdk') throw new MoatError('usage', `${name} is a local (${s.transport}) server: login is for remote (http) servers`);
  return s;
}

async function mcpLogin(name: string, opts: { cwd?: string }): Promise<number> {
  const s = remote(name, opts.cwd);
  await login({ store: oauthStore(env), server: s.name, url: s.url, open: openBrowser });
  out(`Logged in to ${name}. Tokens are in ${oauthStore(env).file}\n`);
  return 0;
}

async function mcpLogout(name: string, opts: { cwd?: string }): Promise<number> {
  const s = remote(name, opts.cwd);
  out(logout(oauthStore(env), s.name, s.url) ? `Logged out of ${name}\n` : `${name} had no stored login\n`);
  return 0;
}

/** `moat mcp approve`: lets this project's servers start (what the TUI's dialog does). */
async function mcpApprove(names: string[], opts: { cwd?: string }): Promise<number> {
  const loaded = servers(opts.cwd);
  const wanted = names.length > 0 ? names : loaded.needsApproval;
  for (const n of wanted) if (loaded.servers.find((x) => x.name === n && x.scope === 'project') === undefined) throw new MoatError('not_found', `${n} is not a server of this project`);
  approveMcpServers(loaded.loaded.projectRoot, wanted, moatPaths(env).configDir);
  const now = projectTrust(loaded.loaded.projectRoot, moatPaths(env).configDir).approvedMcpServers;
  out(wanted.length === 0 ? 'Nothing to approve.\n' : `Approved for ${loaded.loaded.projectRoot}: ${now.join(', ')}\n`);
  return 0;
}

export const mcpCommands = { mcpAdd, mcpAddJson, mcpRemove, mcpList, mcpGet, mcpLogin, mcpLogout, mcpApprove };
