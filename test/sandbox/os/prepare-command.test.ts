// prepareCommand run for real under bubblewrap: what a sandboxed process can and cannot do.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCommand, sandboxSupport, SandboxUnavailableError, type ProcessGrants, type SandboxViolation } from '../../../src/sandbox/index.ts';
import { waitUntil } from '../../support/run-moat.ts';

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

  test('a refusal is reported even when the event loop did not turn while the command ran (a synchronous spawn)', async () => {
    // The loader's connection is then neither accepted nor read when finish() starts: a one-timer wait missed ~1 in 10.
    for (let i = 0; i < 12; i++) {
      const prepared = await prepareCommand(['bash', '-c', `echo x > ${outside}/sync-${i}.txt`], { cwd: repo, env: { PATH: process.env.PATH, HOME: home }, grants: grants(), mode: 'required' });
      const r = Bun.spawnSync(prepared.argv, { cwd: repo, env: prepared.env, stdout: 'ignore', stderr: 'ignore' });
      expect(r.exitCode).not.toBe(0);
      expect((await prepared.finish()).map((v) => v.target)).toEqual([join(outside, `sync-${i}.txt`)]);
    }
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
    // The sandbox's process group is killed as the command ends; the kernel reaps it moments later.
    await waitUntil(() => Bun.spawnSync(['pgrep', '-f', marker]).stdout.toString() === '', 3000, 'the background process to be gone');
    expect(Bun.spawnSync(['pgrep', '-f', marker]).stdout.toString()).toBe('');
  });
});

describe.skipIf(!supported)('denied paths that do not exist yet', () => {
  /** A repository with a .git folder but none of the protected files, and nothing else. */
  function freshRepo(name: string): string {
    const dir = join(base, name);
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    return dir;
  }
  const tree = (dir: string): string[] => (readdirSync(dir, { recursive: true }) as string[]).sort();

  test('cannot be created: .mcp.json, .claude/settings.json, .git/config, .git/hooks/pre-commit, a write-denied .env; nothing is left behind', async () => {
    const dir = freshRepo('fresh');
    const r = await run(
      [
        'echo x > .mcp.json',
        'mkdir -p .claude && echo x > .claude/settings.json',
        'echo x > .git/config',
        'mkdir -p .git/hooks; echo x > .git/hooks/pre-commit',
        'echo x > .env',
        'echo ok > fine.txt && echo wrote-fine',
      ].join('; '),
      grants({ allowWrite: [dir], denyWrite: [join(dir, '.env')] }),
      {},
      dir,
    );
    expect(r.output).toContain('wrote-fine');
    expect(r.output.match(/Read-only file system|Permission denied|Is a directory/g)?.length).toBeGreaterThanOrEqual(5);
    // Only what the command was allowed to make, and the mount points bubblewrap needed are gone again.
    expect(tree(dir)).toEqual(['.git', join('.git', 'HEAD'), 'fine.txt']);
    const targets = r.violations.map((v) => v.target);
    for (const p of ['.mcp.json', '.claude', '.git/config', '.git/hooks', '.env']) expect(targets).toContain(join(dir, p));
  });

  test('the folder around a protected path cannot be renamed away to make a new one', async () => {
    const dir = freshRepo('renamed');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{}\n');
    const r = await run('mv .git .git-old; mv .claude .claude-old; mkdir -p .git/hooks .claude; echo evil > .git/hooks/pre-commit; echo evil > .claude/settings.json; echo done', grants({ allowWrite: [dir] }), {}, dir);
    expect(r.output).toContain('Device or resource busy');
    expect(existsSync(join(dir, '.git-old'))).toBe(false);
    expect(existsSync(join(dir, '.claude-old'))).toBe(false);
    expect(existsSync(join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{}\n');
  });

  test('protected paths reached through symlinks (a linked .claude folder, a linked .mcp.json): commands run, the targets stay read-only, and a replaced link is put back and reported', async () => {
    const dir = freshRepo('linked');
    const shared = join(base, 'dotfiles');
    mkdirSync(join(shared, 'claude'), { recursive: true });
    writeFileSync(join(shared, 'claude', 'settings.json'), '{}\n');
    writeFileSync(join(shared, 'mcp.json'), '{}\n');
    symlinkSync(join(shared, 'claude'), join(dir, '.claude'));
    // A chain: .mcp.json -> cfg/mcp.json (a link inside the repository too) -> the shared file.
    mkdirSync(join(dir, 'cfg'));
    symlinkSync(join(shared, 'mcp.json'), join(dir, 'cfg', 'mcp.json'));
    symlinkSync('cfg/mcp.json', join(dir, '.mcp.json'));
    const r = await run(
      [
        'echo evil > .claude/settings.json',
        'rm .claude && mkdir .claude && echo evil > .claude/settings.json && echo replaced-claude',
        'rm cfg/mcp.json && echo evil > cfg/mcp.json && echo replaced-chain',
        'echo ok > fine.txt && echo wrote-fine',
      ].join('; '),
      grants({ allowWrite: [dir] }),
      {},
      dir,
    );
    // Before, bubblewrap refused to start: it cannot mount onto a path that runs through a symlink.
    expect(r.output).toContain('wrote-fine');
    expect(r.output).toContain('Read-only file system');
    expect(readFileSync(join(shared, 'claude', 'settings.json'), 'utf8')).toBe('{}\n');
    // The command could replace the links while it ran; after it, they are links again to the same places.
    expect(r.output).toContain('replaced-claude');
    expect(realpathSync(join(dir, '.claude'))).toBe(join(shared, 'claude'));
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe('{}\n');
    expect(realpathSync(join(dir, '.mcp.json'))).toBe(join(shared, 'mcp.json'));
    const replaced = r.violations.filter((v) => v.message.includes('put it back')).map((v) => v.target);
    expect(replaced.sort()).toEqual([join(dir, '.claude'), join(dir, 'cfg', 'mcp.json')]);
    // An untouched link is not reported.
    const quiet = await run('cat .mcp.json', grants({ allowWrite: [dir] }), {}, dir);
    expect(quiet).toMatchObject({ code: 0, output: '{}\n', violations: [] });
  });

  test('a mount point shared by two commands stays until the last one ends', async () => {
    const dir = freshRepo('shared');
    // The first command holds the mount points until the test lets it go on, after the second has ended.
    const signals = mkdtempSync(join(base, 'signals-'));
    const slow = run(
      `touch ${signals}/up; while [ ! -e ${signals}/go ]; do sleep 0.01; done; echo x > .mcp.json; echo late-rc=$?`,
      grants({ allowWrite: [dir, signals] }),
      {},
      dir,
    );
    await waitUntil(() => existsSync(join(signals, 'up')), 10_000, 'the first command to start');
    await run('true', grants({ allowWrite: [dir] }), {}, dir);
    writeFileSync(join(signals, 'go'), '');
    const r = await slow;
    expect(r.output).toMatch(/late-rc=[1-9]/);
    expect(tree(dir)).toEqual(['.git', join('.git', 'HEAD')]);
  });

  test('outside a repository .git is left alone, so git init works; and the mount points do not get in the way of git add -A', async () => {
    const dir = join(base, 'plain');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const r = await run('git init -q && echo inited && git add -A && git -c user.name=t -c user.email=t@t commit -qm first && git ls-files', grants({ allowWrite: [dir] }), {}, dir);
    expect(r.output).toContain('inited');
    expect(r.output).toContain('a.txt');
    // The second command runs in a repository: .mcp.json, .claude and .moat are absent, and git still adds everything else.
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    const again = await run('git add -A && git -c user.name=t -c user.email=t@t commit -qm second && git ls-files', grants({ allowWrite: [dir] }), {}, dir);
    expect(again.output).toBe('a.txt\nb.txt\n');
  });
});

describe.skipIf(!supported)("a sub-agent's worktree", () => {
  test('git add and commit work inside it; the user\'s branches, the repository config and the worktree\'s pointers stay out of reach', async () => {
    const main = join(base, 'main-repo');
    mkdirSync(main);
    const git = (cwd: string, ...args: string[]) => Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd });
    git(main, 'init', '-q', '-b', 'main');
    writeFileSync(join(main, 'a.txt'), 'a\n');
    git(main, 'add', '.');
    git(main, 'commit', '-qm', 'first');
    const wt = join(main, '.moat', 'worktrees', 'abc');
    expect(git(main, 'worktree', 'add', '-q', '-b', 'moat/abc-task', wt).exitCode).toBe(0);
    const mainHead = readFileSync(join(main, '.git', 'refs', 'heads', 'main'), 'utf8');
    const r = await run(
      [
        'echo b > b.txt && git add b.txt && git -c user.name=t -c user.email=t@t commit -qm second && echo committed',
        `echo 0000000000000000000000000000000000000000 > ${join(main, '.git', 'refs', 'heads', 'main')}`,
        `echo '[core]' >> ${join(main, '.git', 'config')}`,
        `echo 'ref: refs/heads/main' > ${join(main, '.git', 'worktrees', 'abc', 'HEAD')}`,
        'echo "gitdir: /tmp/elsewhere" > .git',
        'echo end',
      ].join('; '),
      grants({ allowWrite: [wt] }),
      {},
      wt,
    );
    expect(r.output).toContain('committed');
    expect(r.output).toContain('end');
    expect(git(main, 'log', '--format=%s', 'moat/abc-task').stdout.toString()).toBe('second\nfirst\n');
    expect(readFileSync(join(main, '.git', 'refs', 'heads', 'main'), 'utf8')).toBe(mainHead);
    expect(readFileSync(join(main, '.git', 'config'), 'utf8')).not.toContain('[core]\n[core]');
    expect(readFileSync(join(main, '.git', 'worktrees', 'abc', 'HEAD'), 'utf8')).toBe('ref: refs/heads/moat/abc-task\n');
    expect(readFileSync(join(wt, '.git'), 'utf8')).toContain(join(main, '.git', 'worktrees', 'abc'));
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
