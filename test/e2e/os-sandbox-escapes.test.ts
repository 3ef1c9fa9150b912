/**
 * Hostile end-to-end tests on dist/moat for the ways around the OS sandbox a
 * review found: running as root, the proxy and IP literals, the shared temp
 * folder, secrets moat itself keeps, unbounded resources, misleading messages.
 * Each plants the attack as the model's Bash call and checks that nothing
 * happened, nothing leaked, and the model was told.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { removeLater } from '../support/temp.ts';

const asRoot = process.geteuid?.() === 0;
let server: FakeAnthropic;
let sb: Sandbox;

beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  sb = makeSandbox(server.url);
  // Outside the system temp folder, which every sandboxed command may write.
  const project = join(removeLater(realpathSync(mkdtempSync(join('/var/tmp', 'moat-escape-')))), 'work');
  mkdirSync(project);
  sb = { ...sb, cwd: project };
});

type Wire = { messages: { content: { type: string; tool_use_id?: string; content?: unknown }[] }[] };

/** The commands as one message of Bash calls in workspace-write; each result's text. */
async function attempt(commands: string[], o: { extra?: string[]; mode?: string; sandbox?: string } = {}): Promise<string[]> {
  server.requests.length = 0;
  let r = reply();
  commands.forEach((command, i) => (r = r.toolUse('Bash', { command, sandbox: o.sandbox ?? 'workspace-write' }, { id: `toolu_${i}` })));
  server.script(r.stop('tool_use'), reply().text('done'));
  const run = await runMoat(['-p', 'go', '--permission-mode', o.mode ?? 'acceptEdits', ...(o.extra ?? [])], { cwd: sb.cwd, env: sb.env, bin: MOAT_BIN });
  expect(run.stdout).toBe('done\n');
  const last = (server.requests[1]!.body as Wire).messages.at(-1)!.content.filter((c) => c.type === 'tool_result');
  const text = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? '').join('') : JSON.stringify(content));
  const byId = new Map(last.map((c) => [c.tool_use_id, text(c.content)]));
  return commands.map((_, i) => byId.get(`toolu_${i}`) ?? '(no result)');
}

describe.skipIf(!asRoot)('run as root, the command is not the host root', () => {
  test('/proc/sys is read-only, no capability is left, no_new_privs holds, /etc/shadow is unreadable', async () => {
    const results = await attempt([
      // The value written is the one already there: harmless if it ever got through.
      'v=$(cat /proc/sys/kernel/core_pattern) && printf "%s\\n" "$v" > /proc/sys/kernel/core_pattern && echo SYSCTL-WRITTEN',
      "grep -E '^(CapEff|CapBnd|NoNewPrivs):' /proc/self/status",
      'head -c 40 /etc/shadow',
    ]);
    expect(results[0]).not.toContain('SYSCTL-WRITTEN');
    expect(results[0]).toContain('Read-only file system');
    expect(results[1]).toMatch(/CapEff:\s+0+\n/);
    expect(results[1]).toMatch(/CapBnd:\s+0+\n/);
    expect(results[1]).toMatch(/NoNewPrivs:\s+1/);
    expect(results[2]).toContain('Permission denied');
    expect(results[2]).not.toMatch(/root:/);
  });

  test('a write that succeeded is not reported as refused', async () => {
    const results = await attempt(['echo 500 > /proc/$$/oom_score_adj && echo raised']);
    expect(results[0]).toContain('raised');
    expect(results[0]).not.toContain('Refused by the sandbox');
  });

  test('moat sandbox status says what running as root still exposes', async () => {
    const run = await runMoat(['sandbox', 'status'], { cwd: sb.cwd, env: sb.env, bin: MOAT_BIN });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("as root: moat runs as root, so each command is the host's uid 0 with no capabilities");
    expect(run.stdout).toContain('/etc/shadow');
  });
});

describe('messages that say what happened', () => {
  test('a denied file reads as "Permission denied", not as empty', async () => {
    writeFileSync(join(sb.cwd, '.env'), 'SECRET=hunter2\n');
    const results = await attempt(['cat .env; echo "rc=$?"'], { extra: ['--settings', JSON.stringify({ permissions: { deny: ['Read(.env)'] } })] });
    expect(results[0]).not.toContain('hunter2');
    expect(results[0]).toContain('Permission denied');
    expect(results[0]).toContain('rc=1');
  });

  test('in bypassPermissions, a refused sandbox: "off" is not explained as plan mode', async () => {
    const results = await attempt(['echo ran-$((40+2))'], { mode: 'bypassPermissions', sandbox: 'off' });
    expect(results[0]).not.toContain('ran-42');
    expect(results[0]).not.toContain('plan mode');
    expect(results[0]).toContain('bypassPermissions removes prompts, not the OS sandbox');
  });
});

describe('secrets moat itself keeps are unreadable', () => {
  test("moat's config.toml and projects.json, Claude Code's settings and ~/.claude.json", async () => {
    const config = join(sb.home, '.config', 'moat');
    mkdirSync(config, { recursive: true });
    mkdirSync(join(sb.home, '.claude'), { recursive: true });
    writeFileSync(join(config, 'config.toml'), '[mcp_servers.db]\ncommand = "db-mcp"\nenv = { DB_TOKEN = "secret-in-config-toml" }\n');
    writeFileSync(join(config, 'projects.json'), '{"note":"secret-in-projects-json"}\n');
    writeFileSync(join(sb.home, '.claude', 'settings.json'), '{"env":{"PROVIDER_TOKEN":"secret-in-claude-settings"}}\n');
    writeFileSync(join(sb.home, '.claude', 'settings.local.json'), '{"env":{"PROVIDER_TOKEN":"secret-in-claude-local"}}\n');
    writeFileSync(join(sb.home, '.claude.json'), '{"oauthAccount":"secret-in-claude-json"}\n');
    const files = [join(config, 'config.toml'), join(config, 'projects.json'), '~/.claude/settings.json', '~/.claude/settings.local.json', '~/.claude.json'];
    const results = await attempt([...files.map((f) => `cat ${f}`), `grep -r secret- ${config} ~/.claude ~/.claude.json`]);
    for (const r of results) expect(r).not.toContain('secret-in');
    for (const r of results.slice(0, files.length)) expect(r).toContain('Permission denied');
  });
});
