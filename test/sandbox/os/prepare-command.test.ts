// prepareCommand run for real under bubblewrap: what a sandboxed process can and cannot do.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCommand, sandboxSupport, SandboxUnavailableError, type ProcessGrants, type SandboxViolation } from '../../../src/sandbox/index.ts';

const supported = sandboxSupport().available;
let base: string;
let repo: string;
let home: string;
let outside: string;

beforeAll(() => {
  // Not under the temp folder, which every sandboxed process may write.
  base = realpathSync(mkdtempSync(join('/var/tmp', 'moat-os-sandbox-')));
  repo = join(base, 'repo');
  home = join(base, 'home');
  outside = join(base, 'outside');
  for (const d of [repo, join(repo, 'sub'), join(home, '.ssh'), outside]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  writeFileSync(join(repo, '.env'), 'SECRET=1\n');
  writeFileSync(join(outside, 'target.txt'), 'original\n');
  symlinkSync(join(outside, 'target.txt'), join(repo, 'link.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function grants(over: Partial<ProcessGrants> = {}): ProcessGrants {
  return { allowWrite: [repo], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [], ...over };
}

interface Ran {
  code: number;
  output: string;
  violations: SandboxViolation[];
  sandboxed: boolean;
}

async function run(script: string, g: ProcessGrants = grants(), env: Record<string, string | undefined> = {}, cwd = repo): Promise<Ran> {
  const prepared = await prepareCommand(['bash', '-c', `exec 2>&1\n${script}`], {
    cwd,
    env: { PATH: process.env.PATH, HOME: home, ...env },
    grants: g,
    mode: 'required',
  });
  const child = Bun.spawn(prepared.argv, { cwd, env: prepared.env, stdout: 'pipe', stderr: 'ignore' });
  const output = await new Response(child.stdout).text();
  const code = await child.exited;
  return { code, output, violations: await prepared.finish(), sandboxed: prepared.sandboxed };
}

describe.skipIf(!supported)('a sandboxed process', () => {
  test('writes inside the writable root and the temp folder', async () => {
    const r = await run(`echo a > made.txt && echo b > sub/made.txt && t=$(mktemp) && echo c > "$t" && cat made.txt sub/made.txt "$t" && rm "$t"`);
    expect(r).toMatchObject({ code: 0, output: 'a\nb\nc\n', violations: [], sandboxed: true });
  });

  test('cannot write outside the roots: absolute path, ../, planted symlink; and each refusal is reported', async () => {
    const r = await run(`echo x > ${outside}/abs.txt; echo x > ../outside/rel.txt; echo x > link.txt; cat ${outside}/target.txt`);
    expect(r.output).toContain('Read-only file system');
    expect(r.output).toContain('original');
    expect(existsSync(join(outside, 'abs.txt'))).toBe(false);
    expect(existsSync(join(outside, 'rel.txt'))).toBe(false);
    expect(r.violations.map((v) => v.target).sort()).toEqual([join(outside, 'abs.txt'), join(outside, 'rel.txt'), join(outside, 'target.txt')].sort());
  });

  test('cannot hard-link a file from outside into the repo', async () => {
    const r = await run(`ln ${outside}/target.txt hard.txt; echo rc=$?`);
    expect(r.output).toMatch(/Invalid cross-device link|Operation not permitted/);
    expect(existsSync(join(repo, 'hard.txt'))).toBe(false);
  });

  test('read-only grants refuse writes in the working folder', async () => {
    const r = await run('echo x > ro.txt', grants({ allowWrite: [] }));
    expect(r.code).not.toBe(0);
    expect(r.violations).toEqual([{ kind: 'write', target: join(repo, 'ro.txt'), message: `write to ${join(repo, 'ro.txt')} refused` }]);
  });

  test('cannot read ~/.ssh or a denied file, by any program', async () => {
    const r = await run(
      `cat ~/.ssh/id_rsa; cat .env; python3 -c 'print(open(".env").read())'; bash <<'EOF'\ncat .env\nEOF\necho done`,
      grants({ denyRead: [join(repo, '.env')] }),
    );
    expect(r.output).not.toContain('PRIVATE KEY');
    expect(r.output).not.toContain('SECRET=1');
    expect(r.output).toContain('done');
  });

  test('does not see provider keys or scrubbed variables, nor BASH_ENV', async () => {
    writeFileSync(join(base, 'bashenv.sh'), 'echo BASH_ENV_RAN\n');
    const r = await run('echo "[$ANTHROPIC_API_KEY][$GITHUB_TOKEN][$AWS_SECRET_ACCESS_KEY][$KEEP]"', grants(), {
      ANTHROPIC_API_KEY: 'sk-ant-secret',
      GITHUB_TOKEN: 'ghp',
      AWS_SECRET_ACCESS_KEY: 'aws',
      KEEP: 'kept',
      BASH_ENV: join(base, 'bashenv.sh'),
    });
    expect(r.output).toBe('[][][][kept]\n');
  });

  test('has no network and no Unix sockets, and cannot signal moat', async () => {
    const r = await run(
      `python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1; (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1; kill -9 ${process.pid}; echo alive`,
    );
    expect(r.output).toContain('PermissionError: [Errno 1] Operation not permitted');
    expect(r.output).toMatch(/Network is unreachable|Connection refused/);
    expect(r.output).toContain('No such process');
    expect(r.output).toContain('alive');
  });

  test('leaves nothing running once it exits', async () => {
    const marker = `moat-bg-${process.pid}-${Date.now()}`;
    await run(`(exec -a ${marker} sleep 60) & echo started`);
    await Bun.sleep(50);
    const ps = Bun.spawnSync(['pgrep', '-f', marker]);
    expect(ps.stdout.toString()).toBe('');
  });
});

describe('without bubblewrap on PATH', () => {
  const env = { PATH: '/nonexistent', HOME: '/nonexistent' };
  test('auto runs the command unsandboxed and says why', async () => {
    const p = await prepareCommand(['true'], { cwd: '/', env, grants: grants(), mode: 'auto' });
    expect(p.sandboxed).toBe(false);
    expect(p.argv).toEqual(['true']);
    expect(p.unavailableReason).toContain('bubblewrap (bwrap) is not on PATH');
  });
  test('required refuses with a typed error', async () => {
    const e = await prepareCommand(['true'], { cwd: '/', env, grants: grants(), mode: 'required' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SandboxUnavailableError);
    expect((e as Error).message).toContain('[sandbox] mode = "required"');
  });
  test('off never sandboxes but still scrubs keys', async () => {
    const p = await prepareCommand(['true'], { cwd: '/', env: { ...env, OPENAI_API_KEY: 'x', ENV: '/x' }, grants: grants(), mode: 'off' });
    expect(p).toMatchObject({ argv: ['true'], sandboxed: false, env });
  });
});
