/**
 * End to end: the compiled dist/moat with MCP servers — a tool call through
 * --mcp-config in -p, the init line's mcp_servers, a project's .mcp.json held
 * back until approved, and `moat mcp add/list/get/remove`.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { runMoat, type Sandbox } from '../support/run-moat.ts';

const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const everythingConfig = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } });

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s), (s) => (sb = s));

const moat = (args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });
type Body = { tools: { name: string }[]; messages: { role: string; content: { type: string; content?: unknown; tool_use_id?: string }[] }[] };

describe('MCP end to end', () => {
  test('-p --mcp-config: the model calls an MCP tool; the init line lists the server', async () => {
    // The first answer waits a moment: the server connects in the background meanwhile, as it would while a real model thinks.
    // The bundled WebAssembly tools wait behind ToolSearch; it also finds the server's tools (offered directly from the next request on, as their schemas are small).
    server.script(
      reply().wait(2500).toolUse('ToolSearch', { query: 'select:mcp__everything__echo' }).stop('tool_use'),
      reply().toolUse('mcp__everything__echo', { message: 'from the model' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const r = await moat(['-p', 'echo something', '--mcp-config', everythingConfig, '--allowedTools', 'mcp__everything', '--output-format', 'stream-json', '--verbose']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const init = lines.find((l) => l.type === 'system' && l.subtype === 'init') as { mcp_servers: { name: string; status: string }[] };
    expect(init.mcp_servers).toEqual([{ name: 'everything', status: expect.stringMatching(/^(pending|connected)$/) }]);
    expect((server.requests[1]?.body as Body).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['ToolSearch', 'mcp__everything__echo']));
    const third = server.requests[2]?.body as Body;
    const result = third.messages.at(-1)?.content.find((c) => c.type === 'tool_result');
    expect(JSON.stringify(result?.content)).toContain('Echo: from the model');
  }, 30_000);

  test('-p "/mcp__everything__args-prompt Paris": the server\'s prompt is what the model gets; a missing argument is exit 2', async () => {
    server.script(reply().text('Nice city.'));
    const r = await moat(['-p', '/mcp__everything__args-prompt Paris', '--mcp-config', everythingConfig]);
    expect(r).toMatchObject({ code: 0, stdout: 'Nice city.\n', stderr: '' });
    const sent = JSON.stringify((server.requests[0]?.body as Body).messages.at(-1)?.content);
    expect(sent).toContain('Paris');
    expect(sent).not.toContain('/mcp__everything__args-prompt');
    const bad = await moat(['-p', '/mcp__everything__args-prompt', '--mcp-config', everythingConfig]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('moat: /mcp__everything__args-prompt needs city. Usage: /mcp__everything__args-prompt <city> [state]');
  }, 30_000);

  test("a project's .mcp.json does not start anything until the user approves it", async () => {
    const marker = join(dirname(sb.cwd), 'started');
    writeFileSync(join(sb.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { repo: { command: 'sh', args: ['-c', `echo yes > ${marker}; exec sleep 30`] } } }));
    // A sandboxed server writes only its own temp folder: the user's config lets this one leave its mark (it approves nothing).
    mkdirSync(join(sb.home, '.config', 'moat'), { recursive: true });
    writeFileSync(join(sb.home, '.config', 'moat', 'config.toml'), `[mcp_servers.repo.sandbox]\nallow_write = [${JSON.stringify(dirname(sb.cwd))}]\n`);
    server.script(reply().wait(1000).text('Hi.'));
    const r = await moat(['-p', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('MCP server repo (.mcp.json) not started: this project\'s servers need your approval once (run moat mcp approve repo,');
    expect(existsSync(marker)).toBe(false);

    const approve = await moat(['mcp', 'approve', 'repo']);
    expect(approve.code).toBe(0);
    expect(approve.stdout).toContain('repo');
    server.script(reply().wait(1000).text('Hi again.'));
    const after = await moat(['-p', 'hello']);
    expect(after.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  }, 30_000);

  test('moat mcp add, list, get, remove', async () => {
    // --env is written as [mcp_servers.ev.env], a table of the server's own (a top-level [env] would stop moat).
    const add = await moat(['mcp', 'add', 'ev', '--env', 'GREETING=hi', '--', process.execPath, EVERYTHING_JS, 'stdio']);
    expect(add).toMatchObject({ code: 0, stderr: '' });
    const list = await moat(['mcp', 'list']);
    expect(list.code).toBe(0);
    const sandboxed = sandboxSupport(process.env).available ? 'sandboxed' : 'NOT sandboxed';
    expect(list.stdout).toMatch(new RegExp(`^ev  connected  \\d+ tools  stdio  ${sandboxed}.*  user \\(~/\\.config/moat/config\\.toml\\)\\n$`));
    const get = await moat(['mcp', 'get', 'ev']);
    expect(get.stdout).toContain('tools (');
    expect(get.stdout).toContain('echo');
    expect(get.stdout).toContain('network: none');
    expect((await moat(['mcp', 'add', 'ev', '--', 'x'])).stderr).toContain('ev is already in');
    expect(await moat(['mcp', 'remove', 'ev'])).toMatchObject({ code: 0 });
    expect((await moat(['mcp', 'list'])).stdout).toBe('No MCP servers. Add one with: moat mcp add <name> -- <command> [args…]\n');
    const missing = await moat(['mcp', 'get', 'nope']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no MCP server called nope');
  }, 30_000);

  test('moat mcp add --transport http: a url and its headers, which reach the server', async () => {
    const headers: string[] = [];
    const srv = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (req) => {
        headers.push(req.headers.get('x-api-key') ?? '');
        return new Response('log in first', { status: 401 });
      },
    });
    try {
      const url = `http://127.0.0.1:${srv.port}/mcp`;
      const add = await moat(['mcp', 'add', '--transport', 'http', 'remote', url, '--header', 'X-Api-Key: k123']);
      expect(add).toMatchObject({ code: 0, stderr: '' });
      const list = await moat(['mcp', 'list']);
      expect(list).toMatchObject({ code: 0, stderr: '' });
      // A 401 with a credential header configured: that header was refused (logging in would not change what is sent).
      expect(list.stdout).toBe('remote  failed: HTTP 401: the server refused the configured header X-Api-Key (check its value in ~/.config/moat/config.toml)  0 tools  http  remote  user (~/.config/moat/config.toml)\n');
      expect(headers).toContain('k123');
      expect((await moat(['mcp', 'get', 'remote'])).stdout).toContain(`  url: ${url}\n`);
      const bad = await moat(['mcp', 'add', '--transport', 'http', 'other', 'ftp://example.com/mcp']);
      expect(bad).toMatchObject({ code: 2, stderr: 'moat: ftp://example.com/mcp: not an http:// or https:// URL\n' });
    } finally {
      await srv.stop(true);
    }
  }, 30_000);
});
