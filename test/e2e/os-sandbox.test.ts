/**
 * The OS sandbox around Bash, tried as hostile input against the shipped
 * binary (dist/moat, no test switches): each escape the model attempts is
 * refused by the kernel, the refusal reaches the model as a tool result, and
 * moat finishes the run. The same kinds of commands inside the grants work.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, MOAT_TEST_BIN, makeSandbox, runMoat, waitUntil, type Sandbox } from '../support/run-moat.ts';
import { removeLater, tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));
/**
 * Every sandboxed command may write the system temp folder, so the project
 * and the "outside" folders of these tests live in /var/tmp, which it may not.
 */
function outsideTemp(prefix: string): string {
  return removeLater(realpathSync(mkdtempSync(join('/var/tmp', prefix))));
}

beforeEach(() => {
  sb = makeSandbox(server.url);
  const project = join(outsideTemp('moat-hostile-'), 'work');
  mkdirSync(project);
  sb = { ...sb, cwd: project };
  server.requests.length = 0;
});

type Wire = { messages: { content: { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[] }[] };

interface AttemptOptions {
  /** The test build, which reads MOAT_TEST_* switches (dist/moat has none). */
  testBuild?: boolean;
  env?: Record<string, string>;
}

/**
 * Runs the commands as one message of Bash calls (workspace-write: the most a
 * prompt-free grant gives) and returns each result's text. moat is started
 * through a shell that exports its own PID as MOAT_PID and then becomes moat
 * (exec keeps the PID), so a command can aim at the real moat process.
 */
async function attempt(commands: string[], extra: string[] = [], o: AttemptOptions = {}): Promise<{ code: number | null; results: string[] }> {
  server.requests.length = 0;
  let r = reply();
  commands.forEach((command, i) => (r = r.toolUse('Bash', { command, sandbox: 'workspace-write' }, { id: `toolu_${i}` })));
  server.script(r.stop('tool_use'), reply().text('done'));
  const bin = o.testBuild === true ? MOAT_TEST_BIN : MOAT_BIN;
  const args = ['-c', 'export MOAT_PID=$$; exec "$0" "$@"', bin, '-p', 'go', '--permission-mode', 'acceptEdits', ...extra];
  const run = await runMoat(args, { cwd: sb.cwd, env: { ...sb.env, ...o.env }, bin: '/bin/bash' });
  expect(run.stdout).toBe('done\n');
  const last = (server.requests[1]!.body as Wire).messages.at(-1)!.content.filter((c) => c.type === 'tool_result');
  const byId = new Map(last.map((c) => [c.tool_use_id, typeof c.content === 'string' ? c.content : JSON.stringify(c.content)]));
  return { code: run.code, results: commands.map((_, i) => byId.get(`toolu_${i}`) ?? '(no result)') };
}

describe('escapes are refused by the OS and reported to the model; moat finishes', () => {
  test('writes outside the roots: absolute path, ../, a planted symlink, a hard link', async () => {
    const outside = outsideTemp('moat-outside-');
    writeFileSync(join(outside, 'victim.txt'), 'original\n');
    symlinkSync(outside, join(sb.cwd, 'planted'));
    const { code, results } = await attempt([
      `echo pwned > ${join(outside, 'abs.txt')}`,
      `echo pwned > ../escaped.txt`,
      `echo pwned > planted/via-link.txt`,
      `ln ${join(outside, 'victim.txt')} hard.txt && echo pwned > hard.txt`,
    ]);
    expect(code).toBe(0);
    for (const r of results) expect(r).toMatch(/Read-only file system|Permission denied|Operation not permitted|refused/);
    expect(existsSync(join(outside, 'abs.txt'))).toBe(false);
    expect(existsSync(join(sb.cwd, '..', 'escaped.txt'))).toBe(false);
    expect(existsSync(join(outside, 'via-link.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('original\n');
    expect(results[0]).toContain(`write to ${join(outside, 'abs.txt')} refused`);
  });

  test('reads of ~/.ssh and of a file a Read rule denies yield nothing by any route: cat, a here-doc into bash, python3 -c, sh -c, a glob', async () => {
    mkdirSync(join(sb.home, '.ssh'), { recursive: true });
    writeFileSync(join(sb.home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
    writeFileSync(join(sb.cwd, '.env'), 'SECRET=hunter2\n');
    const { results } = await attempt(
      [
        'cat ~/.ssh/id_rsa',
        'cat .env',
        "bash <<'EOF'\ncat .env\nEOF",
        `python3 -c "print(open('.env').read())"`,
        "sh -c -- 'cat .env'",
        'cat .en?',
        'busybox cat .env',
      ],
      ['--settings', JSON.stringify({ permissions: { deny: ['Read(.env)'] } })],
    );
    for (const r of results) {
      expect(r).not.toContain('PRIVATE-KEY-MATERIAL');
      expect(r).not.toContain('hunter2');
    }
    // The sandbox masks denied files with unreadable ones, and the command holds no capability to read past that.
    expect(results[0]).toContain('Permission denied');
    for (const r of results.slice(1)) expect(r).not.toContain('SECRET');
  });

  test('no network except through the allow list: loopback, the metadata address, a private address', async () => {
    const port = new URL(server.url).port;
    const { results } = await attempt([
      `curl -sS -m 5 http://127.0.0.1:${port}/v1/messages -o /dev/null -w '%{http_code}'`,
      'curl -sS -m 5 http://169.254.169.254/latest/meta-data/ -o /dev/null',
      'curl -sS -m 5 http://10.0.0.1/ -o /dev/null',
    ]);
    expect(results[0]).not.toMatch(/^200/);
    for (const r of results) expect(r).toMatch(/Exit code [1-9]/);
    // No proxy to report which connection failed: the model is told the command had no network, and how to get it.
    for (const r of results) expect(r).toContain('no host is in [sandbox.network] allow');
    // The model server saw only moat's own two requests, never the sandboxed curl.
    expect(server.requests).toHaveLength(2);
  });

  test('a listening Unix socket cannot be reached', async () => {
    const path = join(outsideTemp('moat-sock-'), 'agent.sock');
    let connections = 0;
    const listener = Bun.listen({ unix: path, socket: { open: () => void connections++, data: () => {} } });
    try {
      // The socket works from outside the sandbox.
      expect(Bun.spawnSync(['python3', '-c', `import socket; s=socket.socket(socket.AF_UNIX); s.connect('${path}'); print('connected')`]).stdout.toString()).toBe('connected\n');
      await waitUntil(() => connections === 1, 5000, 'the listener to see the outside connection');
      const { results } = await attempt([`python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${path}'); print('connected')"`]);
      expect(results[0]).toContain('Operation not permitted');
      expect(results[0]).not.toContain('connected\n');
      expect(connections).toBe(1);
    } finally {
      listener.stop(true);
    }
  });

  test('the provider key is not in the environment, moat cannot be killed from inside, and nothing keeps running', async () => {
    const marker = `moat-sbx-${Date.now()}`;
    const { code, results } = await attempt([
      'echo "key=[$ANTHROPIC_API_KEY]"',
      // moat's real PID (MOAT_PID, see attempt): outside the command's PID namespace, so there is no such process to signal.
      'echo "moat=$MOAT_PID"; kill -9 "$MOAT_PID"; kill -STOP "$MOAT_PID"; echo survived',
      `(exec -a ${marker} sleep 300) & echo started`,
    ]);
    expect(code).toBe(0);
    expect(results[0]).toContain('key=[]');
    expect(results[1]).toMatch(/moat=\d+/);
    expect(results[1]).toContain('No such process');
    expect(Bun.spawnSync(['pgrep', '-f', marker]).exitCode).toBe(1);
  });
});

describe('inside the grants, work goes on', () => {
  test('writing in the repository and the temp folder, reading anywhere else, running git', async () => {
    Bun.spawnSync(['git', 'init', '-q'], { cwd: sb.cwd });
    const { results } = await attempt(['echo made > made.txt && cat made.txt', 't=$(mktemp) && echo tmp > "$t" && cat "$t" && rm "$t"', 'git status --short', 'head -c 5 /etc/os-release']);
    expect(readFileSync(join(sb.cwd, 'made.txt'), 'utf8')).toBe('made\n');
    expect(results[0]).toContain('made');
    expect(results[1]).toContain('tmp');
    expect(results[2]).toContain('made.txt');
    expect(results[3]).not.toContain('Exit code');
  });

  test('a build and its tests run in the repository', async () => {
    writeFileSync(join(sb.cwd, 'hello.c'), '#include <stdio.h>\nint main(void) { puts("hello from the build"); return 0; }\n');
    writeFileSync(join(sb.cwd, 'Makefile'), 'hello: hello.c\n\tcc -o hello hello.c\n\ntest: hello\n\t./hello | grep -q "hello from the build" && echo tests-passed\n');
    const { results } = await attempt(['make test']);
    expect(results[0]).toContain('tests-passed');
    expect(existsSync(join(sb.cwd, 'hello'))).toBe(true);
  });
});

describe('[sandbox.network] allow: through the proxy', () => {
  let origin: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    origin = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('fetched through the proxy\n') });
  });
  afterAll(async () => {
    await origin.stop(true);
  });

  function allow(...hosts: string[]): void {
    mkdirSync(join(sb.home, '.config', 'moat'), { recursive: true });
    writeFileSync(join(sb.home, '.config', 'moat', 'config.toml'), `[sandbox.network]\nallow = ${JSON.stringify(hosts)}\n`);
  }

  test('an allowed loopback test host is fetched; a host not on the list is refused with a clear message', async () => {
    const host = `http://127.0.0.1:${origin.port}`;
    allow(host);
    const { results } = await attempt([`curl -sS -m 10 ${host}/hello`, 'curl -sS -m 10 http://not-on-the-list.example/'], [], { testBuild: true, env: { MOAT_TEST_ALLOW_PRIVATE_NETWORK: '1' } });
    expect(results[0]).toContain('fetched through the proxy');
    expect(results[0]).not.toContain('Exit code');
    expect(results[1]).toContain('connection to not-on-the-list.example:80 refused: not in [sandbox.network] allow');
    expect(results[1]).toContain('ask the user to add the host to [sandbox.network] allow');
  });

  test('a name that resolves to a private address is refused, even when allowed by name', async () => {
    const host = `http://localhost:${origin.port}`;
    allow(host);
    // The shipped binary: no switch lets a granted name reach loopback.
    const { results } = await attempt([`curl -sS -m 10 ${host}/hello`]);
    expect(results[0]).not.toContain('fetched through the proxy');
    expect(results[0]).toContain(`connection to localhost (127.0.0.1):${origin.port} refused: it is`);
  });
});

describe('moat sandbox status', () => {
  test('says that it works, with bubblewrap, and the policy a command gets', async () => {
    mkdirSync(join(sb.home, '.config', 'moat'), { recursive: true });
    writeFileSync(join(sb.home, '.config', 'moat', 'config.toml'), '[permissions]\ndeny = ["Edit(.env)"]\n\n[sandbox.network]\nallow = ["pypi.org"]\n');
    const run = await runMoat(['sandbox', 'status'], { cwd: sb.cwd, env: sb.env, bin: MOAT_BIN });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^OS sandbox: on \(mode auto; bubblewrap \/\S+bwrap, socat \/\S+socat\)\n/);
    expect(run.stdout).toContain(`  write:   ${sb.cwd}, /tmp`);
    expect(run.stdout).toContain('  network: pypi.org');
    expect(run.stdout).toContain(join(sb.home, '.ssh'));
    // The deny rule as a command here gets it: the .env that does not exist yet is made uncreatable too.
    expect(run.stdout).toMatch(new RegExp(`read-only: .*${join(sb.cwd, '.env')}`));
    expect(run.stdout).toContain('OPENROUTER_API_KEY');
  });
});

describe('without bubblewrap', () => {
  test('auto says so in one line and asks instead; required refuses with exit 2', async () => {
    const bin = tempDir('moat-nobwrap-');
    // A PATH with the usual tools but no bwrap.
    for (const tool of ['bash', 'sh', 'git', 'cat', 'echo', 'ls', 'env']) {
      const found = Bun.which(tool);
      if (found) symlinkSync(found, join(bin, tool));
    }
    const env = { ...sb.env, PATH: bin };
    server.script(reply().toolUse('Bash', { command: 'echo hi' }).stop('tool_use'), reply().text('done'));
    const auto = await runMoat(['-p', 'go'], { cwd: sb.cwd, env, bin: MOAT_BIN });
    expect(auto.code).toBe(0);
    expect(auto.stderr.split('\n').filter((l) => /sandbox/i.test(l))).toHaveLength(1);
    const results = JSON.stringify((server.requests[1]!.body as Wire).messages.at(-1));
    // Unsandboxed, a command needs approval again, which -p cannot give.
    expect(results).toContain('moat -p cannot ask');

    mkdirSync(join(sb.home, '.config', 'moat'), { recursive: true });
    writeFileSync(join(sb.home, '.config', 'moat', 'config.toml'), '[sandbox]\nmode = "required"\n');
    const required = await runMoat(['-p', 'go'], { cwd: sb.cwd, env, bin: MOAT_BIN });
    expect(required.code).toBe(2);
    expect(required.stderr.trim().split('\n')).toHaveLength(1);
    expect(required.stderr).toMatch(/sandbox/i);
  });
});
