/**
 * Hostile end-to-end tests on dist/moat for the ways around the OS sandbox a
 * review found: running as root, the proxy and IP literals, the shared temp
 * folder, secrets moat itself keeps, unbounded resources, misleading messages.
 * Each plants the attack as the model's Bash call and checks that nothing
 * happened, nothing leaked, and the model was told.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { removeLater } from '../support/temp.ts';

const asRoot = process.geteuid?.() === 0;
let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));

beforeEach(() => {
  sb = makeSandbox(server.url);
  // Outside the system temp folder, which every sandboxed command may write.
  const project = join(removeLater(realpathSync(mkdtempSync(join('/var/tmp', 'moat-escape-')))), 'work');
  mkdirSync(project);
  sb = { ...sb, cwd: project };
});

type Wire = { messages: { content: { type: string; tool_use_id?: string; content?: unknown }[] }[] };

function userConfig(toml: string): void {
  mkdirSync(join(sb.home, '.config', 'moat'), { recursive: true });
  writeFileSync(join(sb.home, '.config', 'moat', 'config.toml'), toml);
}

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

describe('the temp folder is private to the session', () => {
  test('what a command leaves in $TMPDIR (a setuid-root copy as root) is not the host temp folder, and is gone when moat exits', async () => {
    const marker = `moat-left-${process.pid}-${Date.now()}`;
    const results = await attempt([`echo "TMPDIR=$TMPDIR"; cp /usr/bin/id "$TMPDIR/${marker}" && chmod 4755 "$TMPDIR/${marker}" && ls -ld /tmp "$TMPDIR/${marker}"`, `ls "$TMPDIR/${marker}" && echo still-there`]);
    expect(results[0]).toContain('TMPDIR=/tmp\n');
    expect(results[0]).toContain(marker);
    // Seen by the next command of the same session.
    expect(results[1]).toContain('still-there');
    const left = Bun.spawnSync(['find', '/tmp', '-xdev', '-name', marker]).stdout.toString().split('\n').filter((l) => l !== '');
    for (const p of left) rmSync(p, { force: true });
    expect(left).toEqual([]);
  });

  test("a crashed session's temp folder is removed by the next session", async () => {
    // A PID no process has: above the kernel's pid_max.
    const stale = mkdtempSync(join('/tmp', 'moat-session-4194305-'));
    writeFileSync(join(stale, 'left.txt'), 'left by a moat that was killed\n');
    const live = mkdtempSync(join('/tmp', `moat-session-${process.pid}-`));
    try {
      await attempt(['true']);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      rmSync(stale, { recursive: true, force: true });
      rmSync(live, { recursive: true, force: true });
    }
  });
});

describe('the proxy checks IP literals as it checks resolved names', () => {
  let origin: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    // Both address families, so every loopback spelling would reach it if let through.
    origin = Bun.serve({ hostname: '::', port: 0, fetch: () => new Response('origin-reached\n') });
  });
  afterAll(async () => {
    await origin.stop(true);
  });

  const SOCKS = '--proxy "$ftp_proxy"';
  const targets = (p: number) => [
    `curl -sS -m 10 http://127.0.0.1:${p}/`,
    `curl -sS -m 10 -p http://127.0.0.1:${p}/`,
    `curl -sS -m 10 ${SOCKS} http://127.0.0.1:${p}/`,
    `curl -sS -m 10 -p http://[::1]:${p}/`,
    `curl -sS -m 10 -p http://0.0.0.0:${p}/`,
    `curl -sS -m 10 ${SOCKS} http://[::]:${p}/`,
    `curl -sS -m 10 -p http://[::ffff:127.0.0.1]:${p}/`,
    `curl -sS -m 10 ${SOCKS} http://[::ffff:7f00:1]:${p}/`,
    'curl -sS -m 10 -p http://169.254.169.254/latest/meta-data/',
    'curl -sS -m 10 http://[::ffff:169.254.169.254]/latest/meta-data/',
  ];
  const allowList = (p: number) => [`*://127.0.0.1:${p}`, `*://[::1]:${p}`, `*://0.0.0.0:${p}`, `*://[::]:${p}`, `*://[::ffff:127.0.0.1]:${p}`, `*://[::ffff:7f00:1]:${p}`, '*://169.254.169.254', '*://[::ffff:169.254.169.254]'];

  test('loopback, unspecified, IPv4-mapped and metadata literals on the allow list are refused through CONNECT, plain HTTP and SOCKS', async () => {
    const p = origin.port as number;
    userConfig(`[sandbox.network]\nallow = ${JSON.stringify(allowList(p))}\n`);
    const results = await attempt([...targets(p), 'echo "socks=$ftp_proxy" | cut -c1-14']);
    expect(results.at(-1)).toContain('socks=socks5h:');
    for (const r of results.slice(0, -1)) {
      expect(r).not.toContain('origin-reached');
      expect(r).toMatch(/refused: it is a (loopback|unspecified|cloud metadata|link-local)|cloud metadata address/);
    }
  });

  test('[sandbox.network] allow_loopback lets allowed loopback hosts through, and nothing else', async () => {
    const p = origin.port as number;
    userConfig(`[sandbox.network]\nallow_loopback = true\nallow = ${JSON.stringify(allowList(p))}\n`);
    const results = await attempt(targets(p));
    for (const i of [0, 1, 2, 3, 6, 7]) expect(results[i]).toContain('origin-reached');
    for (const i of [4, 5, 8, 9]) expect(results[i]).not.toContain('origin-reached');
    expect(results[4]).toContain('refused: it is a unspecified');
  });
});

describe('resource limits per command', () => {
  test('a fork bomb is ended at [sandbox] pids_limit, a file stops at file_size_limit, and the model is told which key raises them', async () => {
    userConfig('[sandbox]\npids_limit = 64\nfile_size_limit = "1 MiB"\n');
    const started = Date.now();
    const results = await attempt(['f(){ f | f & }; f; sleep 60; echo bomb-survived', 'exec head -c 3000000 /dev/zero > big.bin']);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(results[0]).not.toContain('bomb-survived');
    expect(results[0]).toContain('reached (new processes were refused); raise [sandbox] pids_limit');
    expect(results[1]).toContain('killed: file size limit 1 MiB reached; raise [sandbox] file_size_limit');
    expect(Bun.file(join(sb.cwd, 'big.bin')).size).toBe(2 ** 20);
  }, 90_000);

  test('a 1.5 GiB allocation is killed at memory_limit = "1 GiB" and reported', async () => {
    userConfig('[sandbox]\nmemory_limit = "1 GiB"\n');
    const results = await attempt(['python3 -c "b = bytearray(1536 * 2**20); print(\'allocated\', len(b))"']);
    expect(results[0]).not.toContain('allocated');
    expect(results[0]).toMatch(/killed: memory limit 1 GiB reached; raise \[sandbox\] memory_limit|MemoryError/);
  }, 150_000);
});
