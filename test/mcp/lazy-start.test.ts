/**
 * What keeps MCP out of a start-up without servers: the probe that skips the
 * server loader (it must say "maybe" whenever the loader would find anything,
 * a problem line included), and a manager that lists its servers before the
 * connection code is imported on the first start.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SERVER_SANDBOX, loadServers, mayDefineServers, McpManager, type ServerSources } from '../../src/mcp/index.ts';
import { tempDir } from '../support/temp.ts';
import { everything, manager, parsedFiles, stdioServer } from './support.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(files: Record<string, string>, over: Partial<ServerSources> = {}): ServerSources {
  const root = tempDir('moat-mcp-probe-');
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
  mkdirSync(join(root, 'home'), { recursive: true });
  mkdirSync(join(root, 'project'), { recursive: true });
  return {
    cwd: join(root, 'project'),
    projectRoot: join(root, 'project'),
    env: { HOME: join(root, 'home') },
    userConfigFile: join(root, 'home/.config/moat/config.toml'),
    projectConfigFile: join(root, 'project/.moat/config.toml'),
    parsedFiles: parsedFiles(join(root, 'home/.config/moat/config.toml'), join(root, 'project/.moat/config.toml')),
    ...over,
  };
}

const NOTHING = { servers: [], needsApproval: [], problems: [] };

describe('mayDefineServers', () => {
  test('no source at all, or config files without MCP: no, and the loader agrees', () => {
    for (const sources of [
      setup({}),
      setup({ 'home/.config/moat/config.toml': 'model = "claude-sonnet-4-5"\n', 'project/.moat/config.toml': '[permissions]\nallow = ["Read"]\n' }),
      setup({ 'home/.claude.json': '{}' }, { strict: true }),
      // Claude Code's record of other folders, with the empty server tables it writes everywhere: nothing for moat.
      setup({ 'home/.claude.json': JSON.stringify({ mcpServers: {}, projects: { '/elsewhere': { mcpServers: {}, history: [{ display: 'hi' }] } } }) }),
      // Servers Claude Code keeps for another folder only.
      setup({ 'home/.claude.json': JSON.stringify({ projects: { '/elsewhere': { mcpServers: { x: { command: 'x' } } } } }) }),
    ]) {
      expect(mayDefineServers(sources)).toBe(false);
      expect(loadServers(sources)).toEqual(NOTHING);
    }
  });

  test('every source the loader reads (and the variables it checks) makes it yes', () => {
    const cases: ServerSources[] = [
      setup({}, { mcpConfigs: ['{"mcpServers": {}}'] }),
      setup({}, { env: { HOME: '/nonexistent', MCP_TIMEOUT: 'soon' } }),
      // Broken where it names a server (a broken file that names none is not parsed: nothing in it is used).
      setup({ 'home/.claude.json': '{"mcpServers": {"x": nope' }),
      setup({ 'home/.claude/settings.json': '[]' }),
      setup({ 'project/.mcp.json': '{}' }),
      setup({ 'home/.config/moat/config.toml': '[mcp]\ntrust_project = true\n' }),
      setup({ 'project/.moat/config.toml': '[mcp_servers.x]\ncommand = "x"\n' }),
      // A quoted key may spell the table with escapes.
      setup({ 'project/.moat/config.toml': '["\\u006dcp_servers".x]\ncommand = "x"\n' }),
    ];
    for (const sources of cases) expect(mayDefineServers(sources)).toBe(true);
    // Where the loader would say something, the probe said yes: a broken ~/.claude.json, a bad variable, Claude's settings of the wrong kind.
    expect(loadServers(cases[1] as ServerSources).problems).toHaveLength(1);
    expect(loadServers(cases[2] as ServerSources).problems).toHaveLength(1);
    expect(loadServers(cases[3] as ServerSources).problems).toHaveLength(1);
  });

  test('--strict-mcp-config reads no file: only flags and variables count', () => {
    expect(mayDefineServers(setup({ 'project/.mcp.json': '{}' }, { strict: true }))).toBe(false);
    expect(mayDefineServers(setup({}, { strict: true, mcpConfigs: ['x.json'] }))).toBe(true);
  });
});

describe('McpManager before its first start', () => {
  const options = { launch: { cwd: process.cwd(), env: process.env, sandbox: DEFAULT_SERVER_SANDBOX }, roots: [process.cwd()], clientVersion: '0.0.0-test' };

  test('lists every server in its first state, with no connection yet', async () => {
    const m = new McpManager([everything(), stdioServer('off', 'x', [], { enabled: false }), stdioServer('proj', '/nonexistent/x', [], { scope: 'project' })], { ...options, needsApproval: ['proj'] });
    expect(m.status().map((s) => [s.name, s.state.status, s.tools.length])).toEqual([
      ['everything', 'connecting', 0],
      ['off', 'disabled', 0],
      ['proj', 'needs-approval', 0],
    ]);
    expect(m.get('everything')).toBeUndefined();
    expect(m.config('off')?.enabled).toBe(false);
    expect(m.tools()).toEqual([]);
    await m.reconnect('nobody');
    await m.settled();
    expect(m.get('everything')).toBeUndefined();
    // Approving starts the server (here: one that cannot start) although nothing else did.
    m.approve(['proj']);
    expect(m.status()[2]?.state).toEqual({ status: 'connecting' });
    await m.settled();
    expect(m.status()[2]?.state.status).toBe('failed');
    expect(m.status()[0]?.state).toEqual({ status: 'connecting' });
    await m.close();
  });

  test('a manager closed before the connection code arrives starts nothing', async () => {
    const m = manager([everything()]);
    m.startAll();
    await m.close();
    await m.settled();
    expect(m.status()[0]?.state).toEqual({ status: 'failed', error: 'closed' });
  });
});
