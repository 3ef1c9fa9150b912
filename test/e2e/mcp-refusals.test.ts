/**
 * What the OS sandbox refuses a running MCP server reaches the model with the
 * result of the call during which it happened, and the user once on stderr,
 * naming the path or host and the user-config line that would allow it.
 * Real servers on dist/moat with the scripted model: server-filesystem
 * writing outside its grant, and a small server on the real SDK fetching a
 * host it was not granted.
 */
import { beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { removeLater } from '../support/temp.ts';

const FILESYSTEM_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const FETCH_SERVER = resolve(import.meta.dir, '../mcp/fetch-server.ts');
const sandboxed = sandboxSupport(process.env).available;

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));

beforeEach(() => {
  server.requests.length = 0;
  sb = makeSandbox(server.url);
  // A server may write its own temp folder, which stands in for the system one: the project lives under /var/tmp.
  const root = removeLater(realpathSync(mkdtempSync(join('/var/tmp', 'moat-mcp-refusals-'))));
  const project = join(root, 'work');
  mkdirSync(project);
  sb = { ...sb, cwd: project };
});

type Block = { type: string; content?: unknown; tool_use_id?: string };
type Body = { messages: { role: string; content: string | Block[] }[] };
/** The text of the tool_result the model was sent in request i. */
function toolResult(i: number): string {
  const last = (server.requests[i]?.body as Body).messages.at(-1)?.content;
  const result = Array.isArray(last) ? last.find((c) => c.type === 'tool_result') : undefined;
  return JSON.stringify(result?.content ?? '');
}
const lines = (stderr: string, pattern: RegExp) => stderr.split('\n').filter((l) => pattern.test(l));
const userConfig = () => join(sb.env.XDG_CONFIG_HOME as string, 'moat', 'config.toml');

describe.skipIf(!sandboxed)('MCP servers refused by the OS sandbox', () => {
  test('server-filesystem writing outside its grant: the refusal is in that call\'s result and said once on stderr, with the allow_write line', async () => {
    // The server serves the project (moat's roots), which it was not granted to write: only the sandbox stands in its way.
    const target = join(sb.cwd, 'note.txt');
    expect((await runMoat(['mcp', 'add', 'fs', '--', 'node', FILESYSTEM_JS, sb.cwd], { cwd: sb.cwd, env: sb.env })).code).toBe(0);
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:mcp__fs__write_file' }).stop('tool_use'),
      reply().toolUse('mcp__fs__write_file', { path: target, content: 'one' }).stop('tool_use'),
      reply().toolUse('mcp__fs__write_file', { path: target, content: 'two' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const r = await runMoat(['-p', 'write it', '--allowedTools', 'mcp__fs'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect(existsSync(target)).toBe(false);
    // The call during which it happened carries it (the server is still running: seen live, not at its exit)…
    const first = toolResult(2);
    expect(first).toContain(`The MCP server fs ran into the OS sandbox: write to ${target} refused`);
    expect(first).toContain(`[mcp_servers.fs.sandbox] allow_write = [\\"${sb.cwd}\\"]`);
    // …the next call's result does not repeat it, and stderr says it once.
    expect(toolResult(3)).not.toContain('OS sandbox');
    const said = lines(r.stderr, /ran into the OS sandbox/);
    expect(said).toEqual([
      `moat: MCP server fs ran into the OS sandbox: write to ${target} refused; to allow it, in ~/.config/moat/config.toml: [mcp_servers.fs.sandbox] allow_write = ["${sb.cwd}"] (moat mcp add … --allow-write ${sb.cwd})`,
    ]);
  }, 90_000);

  test('a --mcp-config server fetching a host it was not granted: the host and the network_allow line, keeping the user-config grants it has', async () => {
    mkdirSync(join(sb.env.XDG_CONFIG_HOME as string, 'moat'), { recursive: true });
    // The grant for a server defined elsewhere is the user's config key (a project file may not grant).
    writeFileSync(userConfig(), '[mcp_servers.fetcher.sandbox]\nnetwork_allow = ["allowed.example"]\n');
    const config = JSON.stringify({ mcpServers: { fetcher: { command: process.execPath, args: [FETCH_SERVER] } } });
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:mcp__fetcher__fetch_url' }).stop('tool_use'),
      reply().toolUse('mcp__fetcher__fetch_url', { url: 'https://blocked.example/data' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const r = await runMoat(['-p', 'fetch it', '--mcp-config', config, '--allowedTools', 'mcp__fetcher'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    const result = toolResult(2);
    expect(result).toContain('The MCP server fetcher ran into the OS sandbox: connection to blocked.example:443 refused (not in its network_allow)');
    expect(result).toContain(`[mcp_servers.fetcher.sandbox] network_allow = [\\"allowed.example\\", \\"blocked.example\\"]`);
    const said = lines(r.stderr, /ran into the OS sandbox/);
    expect(said).toEqual([
      `moat: MCP server fetcher ran into the OS sandbox: connection to blocked.example:443 refused (not in its network_allow); to allow it, in ~/.config/moat/config.toml: [mcp_servers.fetcher.sandbox] network_allow = ["allowed.example", "blocked.example"] (moat mcp add … --allow-network blocked.example)`,
    ]);
  }, 90_000);
});
