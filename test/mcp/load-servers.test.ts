/** Where MCP servers come from: Claude Code's JSON, Codex's TOML, flags; merging, approval, and bad entries skipped with file and key. */
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { loadServers, mcpToolName, type ServerSources } from '../../src/mcp/index.ts';
import { tempDir } from '../support/temp.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(files: Record<string, string>) {
  const root = tempDir('moat-mcp-load-');
  dirs.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  for (const [rel, text] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  }
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  const sources: ServerSources = {
    cwd: project,
    projectRoot: project,
    env: { HOME: home, GH_TOKEN: 'tok123' },
    userConfigFile: join(home, '.config/moat/config.toml'),
    projectConfigFile: join(project, '.moat/config.toml'),
  };
  return { root, home, project, sources };
}

describe('loadServers', () => {
  test('reads .mcp.json, ~/.claude.json and both config.toml files; later wins per name', () => {
    const { sources, project } = setup({
      'home/.claude.json': JSON.stringify({ mcpServers: { shared: { command: 'from-claude' }, claude_only: { type: 'http', url: 'https://c.example/mcp' } } }),
      'home/.config/moat/config.toml': '[mcp_servers.shared]\ncommand = "from-user-toml"\nargs = ["-y"]\ntool_timeout_sec = 5\n\n[mcp_servers.remote]\nurl = "https://api.example/mcp"\nbearer_token_env_var = "GH_TOKEN"\n',
      'project/.mcp.json': JSON.stringify({ mcpServers: { proj: { command: 'node', args: ['${HOME}/x.js', '${MISSING:-dflt}'], env: { T: '${GH_TOKEN}' } } } }),
    });
    const r = loadServers(sources);
    expect(r.problems).toEqual([]);
    expect(r.servers.map((s) => [s.name, s.scope, s.transport])).toEqual([
      ['claude_only', 'claude-user', 'http'],
      ['shared', 'user', 'stdio'],
      ['remote', 'user', 'http'],
      ['proj', 'project', 'stdio'],
    ]);
    const shared = r.servers.find((s) => s.name === 'shared');
    expect(shared).toMatchObject({ command: 'from-user-toml', args: ['-y'], toolTimeoutMs: 5000, startupTimeoutMs: 10_000, sandbox: { enabled: true, allowWrite: [], networkAllow: [] } });
    const proj = r.servers.find((s) => s.name === 'proj');
    expect(proj).toMatchObject({ args: [`${sources.env.HOME}/x.js`, 'dflt'], env: { T: 'tok123' }, origin: '.mcp.json' });
    expect(r.servers.find((s) => s.name === 'remote')).toMatchObject({ url: 'https://api.example/mcp', bearerTokenEnvVar: 'GH_TOKEN' });
    // A project's servers wait for approval; the user's do not.
    expect(r.needsApproval).toEqual(['proj']);
    expect(project).toBeTruthy();
  });

  test('approval: projects.json, an enabled entry in the user config, or [mcp] trust_project', () => {
    const files = { 'project/.mcp.json': JSON.stringify({ mcpServers: { a: { command: 'x' }, b: { command: 'y' } } }) };
    expect(loadServers({ ...setup(files).sources, approved: ['a'] }).needsApproval).toEqual(['b']);
    const enabled = setup({ ...files, 'home/.config/moat/config.toml': '[mcp_servers.b]\nenabled = true\n' });
    const r = loadServers(enabled.sources);
    expect(r.needsApproval).toEqual(['a']);
    expect(r.problems).toEqual([]);
    const trusted = setup({ ...files, 'home/.config/moat/config.toml': '[mcp]\ntrust_project = true\n' });
    expect(loadServers(trusted.sources).needsApproval).toEqual([]);
    // The project cannot trust itself.
    const self = setup({ ...files, 'project/.moat/config.toml': '[mcp]\ntrust_project = true\n' });
    expect(loadServers(self.sources).needsApproval).toEqual(['a', 'b']);
  });

  test('a bad entry is one line naming file, line and key, and only that server is skipped', () => {
    const { sources } = setup({
      'home/.config/moat/config.toml': '[mcp_servers.good]\ncommand = "ok"\n\n[mcp_servers.bad]\ncommand = "x"\nstartup_timeout_sec = "soon"\n\n[mcp_servers.typo]\ncomand = "x"\n',
      'project/.mcp.json': JSON.stringify({ mcpServers: { nocmd: { args: [] }, envless: { command: '${NOPE}' }, 'bad\u0007name': { command: 'x' } } }),
      'project/.moat/config.toml': '[mcp_servers.unboxed]\ncommand = "x"\nsandbox = false\n',
    });
    const r = loadServers(sources);
    expect(r.servers.map((s) => s.name)).toEqual(['good']);
    expect(r.problems).toEqual([
      '~/.config/moat/config.toml:6: mcp_servers.bad.startup_timeout_sec: Invalid input: expected number, received string; server skipped',
      '~/.config/moat/config.toml:9: mcp_servers.typo.comand: unknown key; server skipped',
      '.mcp.json: mcpServers.nocmd: needs command (a local server) or url (a remote one); server skipped',
      '.mcp.json: mcpServers.envless: ${NOPE} is not set (give a default with ${NOPE:-value}); server skipped',
      '.mcp.json: mcpServers."bad\\u0007name": a server name must be 1 to 128 characters, none of them control characters; server skipped',
      '.moat/config.toml:3: mcp_servers.unboxed.sandbox: sandbox = false is only honoured in the user\'s own config; server skipped',
    ]);
  });

  test('server names with dots or spaces are accepted, as Claude Code accepts them; two names that make the same tool names keep the first', () => {
    const { sources, home, project } = setup({
      'home/.config/moat/config.toml': '[mcp_servers."my.srv"]\ncommand = "x"\n\n[mcp_servers.good]\ncommand = "ok"\n',
      'project/.mcp.json': JSON.stringify({ mcpServers: { 'my server': { command: 'y' }, my_srv: { command: 'z' } } }),
      'project/.moat/config.toml': 'mcp_servers.flat = 3\n',
    });
    const env = { ...sources.env, XDG_CONFIG_HOME: join(home, '.config') };
    expect(() => loadConfig({ cwd: project, env })).not.toThrow();
    const r = loadServers({ ...sources, env });
    expect(r.servers.map((s) => s.name)).toEqual(['my.srv', 'good', 'my server']);
    expect(r.problems).toEqual([
      '.mcp.json: mcpServers.my_srv: its tool names (mcp__my_srv__…) would be those of the server "my.srv"; server skipped',
      '.moat/config.toml:1: mcp_servers.flat: Invalid input: expected object, received number; server skipped',
    ]);
    expect(mcpToolName('my.srv', 'echo')).toBe('mcp__my_srv__echo');
    expect(mcpToolName('my server', 'get-sum')).toBe('mcp__my_server__get-sum');
  });

  test("Claude Code's MCP_TIMEOUT, MCP_TOOL_TIMEOUT and MAX_MCP_OUTPUT_TOKENS set every server's defaults; a server's own setting wins", () => {
    const { sources } = setup({ 'home/.config/moat/config.toml': '[mcp_servers.own]\ncommand = "o"\ntool_timeout_sec = 5\nmax_output_tokens = 100\n\n[mcp_servers.plain]\ncommand = "p"\n' });
    const env = { ...sources.env, MCP_TIMEOUT: '30000', MCP_TOOL_TIMEOUT: '120000', MAX_MCP_OUTPUT_TOKENS: '50000' };
    const r = loadServers({ ...sources, env });
    expect(r.problems).toEqual([]);
    expect(r.servers.find((s) => s.name === 'plain')).toMatchObject({ startupTimeoutMs: 30_000, toolTimeoutMs: 120_000, maxOutputTokens: 50_000 });
    expect(r.servers.find((s) => s.name === 'own')).toMatchObject({ startupTimeoutMs: 30_000, toolTimeoutMs: 5000, maxOutputTokens: 100 });
    const bad = loadServers({ ...sources, env: { ...sources.env, MCP_TIMEOUT: '10s' } });
    expect(bad.problems).toEqual(['MCP_TIMEOUT=10s: not a positive whole number of milliseconds; using 10000']);
    expect(bad.servers.find((s) => s.name === 'plain')?.startupTimeoutMs).toBe(10_000);
  });

  test("approvals from the user's Claude Code settings: enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers", () => {
    const mcpJson = JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'b' }, c: { command: 'c' } } });
    const named = setup({ 'project/.mcp.json': mcpJson, 'home/.claude/settings.json': JSON.stringify({ enabledMcpjsonServers: ['a'], disabledMcpjsonServers: ['b'] }) });
    const r = loadServers(named.sources);
    expect(r.needsApproval).toEqual(['c']);
    expect(r.servers.map((s) => [s.name, s.enabled])).toEqual([['a', true], ['b', false], ['c', true]]);
    const all = setup({ 'project/.mcp.json': mcpJson, 'home/.claude/settings.json': JSON.stringify({ enableAllProjectMcpServers: true }) });
    expect(loadServers(all.sources).needsApproval).toEqual([]);
    // Where Claude Code's approval dialog writes them: this project's entry in ~/.claude.json.
    const dialog = setup({ 'project/.mcp.json': mcpJson });
    writeFileSync(join(dialog.home, '.claude.json'), JSON.stringify({ projects: { [dialog.project]: { enabledMcpjsonServers: ['b', 'c'] }, '/elsewhere': { enableAllProjectMcpServers: true } } }));
    expect(loadServers(dialog.sources).needsApproval).toEqual(['a']);
  });

  test("a project's own Claude settings cannot approve its servers; a bad value is one line", () => {
    const self = setup({
      'project/.mcp.json': JSON.stringify({ mcpServers: { a: { command: 'a' } } }),
      'project/.claude/settings.json': JSON.stringify({ enableAllProjectMcpServers: true }),
      'project/.claude/settings.local.json': JSON.stringify({ enabledMcpjsonServers: ['a'] }),
      'home/.claude/settings.json': JSON.stringify({ enabledMcpjsonServers: 'a' }),
    });
    const r = loadServers(self.sources);
    expect(r.needsApproval).toEqual(['a']);
    expect(r.problems).toEqual(['~/.claude/settings.json: enabledMcpjsonServers: Invalid input: expected array, received string; its MCP approvals are ignored']);
  });

  test("approvals Claude Code's dialog wrote to .claude/settings.local.json count once the folder is trusted (Claude Code's trust record), the shared settings.json's never", () => {
    const files = {
      'project/.mcp.json': JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'b' } } }),
      'project/.claude/settings.json': JSON.stringify({ enabledMcpjsonServers: ['b'] }),
      'project/.claude/settings.local.json': JSON.stringify({ enabledMcpjsonServers: ['a'] }),
    };
    const untrusted = setup(files);
    // Trusted by Claude Code, but another folder: nothing changes here.
    writeFileSync(join(untrusted.home, '.claude.json'), JSON.stringify({ projects: { [join(untrusted.root, 'other')]: { hasTrustDialogAccepted: true } } }));
    expect(loadServers(untrusted.sources).needsApproval).toEqual(['a', 'b']);
    const trusted = setup(files);
    writeFileSync(join(trusted.home, '.claude.json'), JSON.stringify({ projects: { [trusted.project]: { hasTrustDialogAccepted: true } } }));
    expect(loadServers(trusted.sources).needsApproval).toEqual(['b']);
    // A record that only looks like trust is none.
    const fake = setup(files);
    writeFileSync(join(fake.home, '.claude.json'), JSON.stringify({ projects: { [fake.project]: { hasTrustDialogAccepted: 'yes' } } }));
    expect(loadServers(fake.sources).needsApproval).toEqual(['a', 'b']);
  });

  test('sandbox grants and overrides: the user may lift the sandbox; a project may not widen a server defined elsewhere', () => {
    const { sources, home, project } = setup({
      'home/.config/moat/config.toml': '[mcp_servers.fs]\ncommand = "fs"\n[mcp_servers.fs.sandbox]\nallow_write = ["out"]\nnetwork_allow = ["api.example.com"]\n\n[mcp_servers.free]\ncommand = "free"\nsandbox = false\n',
      'project/.moat/config.toml': '[mcp_servers.fs.sandbox]\nallow_write = ["/"]\n\n[mcp_servers.free]\nenabled = false\n',
    });
    const r = loadServers(sources);
    expect(r.servers.find((s) => s.name === 'fs')).toMatchObject({ sandbox: { enabled: true, allowWrite: [join(home, 'out')], networkAllow: ['api.example.com'] } });
    expect(r.servers.find((s) => s.name === 'free')).toMatchObject({ enabled: false, sandbox: { enabled: false } });
    expect(r.problems).toEqual(['.moat/config.toml:1: mcp_servers.fs.sandbox: a project file cannot widen a server defined elsewhere; setting ignored']);
    expect(project).toBeTruthy();
  });

  test('--mcp-config takes files and JSON text; --strict-mcp-config uses only those', () => {
    const { sources, root } = setup({
      'home/.config/moat/config.toml': '[mcp_servers.user]\ncommand = "u"\n',
      'extra.json': JSON.stringify({ mcpServers: { fromfile: { type: 'sse', url: 'http://localhost:9/sse' } } }),
    });
    const flags = [join(root, 'extra.json'), '{"mcpServers":{"inline":{"command":"i","args":["a"]}}}'];
    expect(loadServers({ ...sources, mcpConfigs: flags }).servers.map((s) => `${s.name}:${s.scope}`)).toEqual(['user:user', 'fromfile:flag', 'inline:flag']);
    expect(loadServers({ ...sources, mcpConfigs: flags, strict: true }).servers.map((s) => s.name)).toEqual(['fromfile', 'inline']);
    expect(loadServers({ ...sources, mcpConfigs: ['{nope', 'missing.json'] }).problems).toEqual([
      expect.stringMatching(/^--mcp-config: not valid JSON: /),
      '--mcp-config missing.json: no such file',
    ]);
  });

  test("~/.claude.json: the user's servers and the ones Claude Code keeps for this project", () => {
    const { sources, project } = setup({});
    writeFileSync(join(sources.env.HOME as string, '.claude.json'), JSON.stringify({ mcpServers: { top: { command: 't' } }, projects: { [project]: { mcpServers: { local: { command: 'l' } } }, '/elsewhere': { mcpServers: { other: { command: 'o' } } } } }));
    const r = loadServers(sources);
    expect(r.servers.map((s) => `${s.name}:${s.scope}`)).toEqual(['top:claude-user', 'local:claude-user']);
    expect(r.needsApproval).toEqual([]);
  });
});
