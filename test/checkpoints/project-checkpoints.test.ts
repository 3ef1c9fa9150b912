/** ProjectCheckpoints against real git and a real store: hostile repositories, shared objects, ignored folders, damage, retention. */
import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyRetention, ProjectCheckpoints, shadowDir, turnHook } from '../../src/checkpoints/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';
import { treeState } from '../support/tree-state.ts';

function setUp(maxFileBytes = 10 * 1024 * 1024): { store: Store; project: string; root: string; pc: ProjectCheckpoints } {
  const dir = tempDir('moat-cp-');
  const project = join(dir, 'project');
  mkdirSync(project);
  const store = openStore(join(dir, 'moat.db'));
  const root = join(dir, 'checkpoints');
  return { store, project, root, pc: new ProjectCheckpoints(store, project, { root, maxFileBytes }) };
}

function prompt(store: Store, project: string, id: string, turn: number, text: string): void {
  if (!store.sessions.get(id)) store.sessions.create({ id, cwd: project, projectRoot: project, model: 'm', permissionMode: 'default' });
  store.messages.append(id, { role: 'user', content: [{ type: 'text', text }] }, turn);
}

function git(cwd: string, args: string[]): string {
  const r = Bun.spawnSync(['git', ...args], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString();
}

function du(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += statSync(join(e.parentPath, e.name)).size;
  return n;
}

/** The git commands `p` runs from now on (their subcommand names), in order. */
function gitCalls(p: ProjectCheckpoints): string[] {
  const calls: string[] = [];
  const exec = p.git.exec.bind(p.git);
  p.git.exec = (args, input) => {
    calls.push(args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? '');
    return exec(args, input);
  };
  return calls;
}

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('a hostile repository', () => {
  test('its config, hooks and attributes run nothing, and its .git is untouched', async () => {
    const { store, project, pc } = setUp();
    git(project, ['init', '-q']);
    const pwned = join(project, '..', 'pwned');
    git(project, ['config', 'core.fsmonitor', `touch ${pwned}-fsmonitor`]);
    git(project, ['config', 'filter.evil.clean', `touch ${pwned}-filter; cat`]);
    git(project, ['config', 'filter.evil.smudge', `touch ${pwned}-smudge; cat`]);
    git(project, ['config', 'diff.evil.textconv', `touch ${pwned}-textconv; cat`]);
    writeFileSync(join(project, '.gitattributes'), '* filter=evil diff=evil text eol=crlf\n');
    for (const hook of ['pre-commit', 'post-commit', 'post-checkout', 'reference-transaction', 'post-index-change']) {
      writeFileSync(join(project, '.git', 'hooks', hook), `#!/bin/sh\ntouch ${pwned}-${hook}\n`, { mode: 0o755 });
    }
    writeFileSync(join(project, 'a.txt'), 'one\r\ntwo\n');
    const gitBefore = treeState(join(project, '.git'), []);
    prompt(store, project, 's', 1, 'change');
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = join(project, '.git'); // a GIT_DIR in moat's environment must not steer the shadow git
    try {
      await pc.before('s', 1);
      writeFileSync(join(project, 'a.txt'), 'changed\n');
      await pc.after('s', 1);
      await pc.points('s');
      await pc.restore(await pc.plan('s', 1), { force: false });
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
    // Byte for byte: no line-ending conversion or filter on the way in or out.
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('one\r\ntwo\n');
    expect(readdirSync(join(project, '..')).filter((n) => n.startsWith('pwned'))).toEqual([]);
    expect(treeState(join(project, '.git'), [])).toEqual(gitBefore);
  });
});

describe('checkpoints', () => {
  test('a one-line change in a 200-file project costs a few KB; an unchanged tree writes no commit', async () => {
    const { store, project, root, pc } = setUp();
    for (let i = 0; i < 200; i++) writeFileSync(join(project, `f${i}.txt`), `${'line of text\n'.repeat(80)}${i}\n`);
    prompt(store, project, 's', 1, 'one');
    const first = await pc.before('s', 1);
    await pc.after('s', 1);
    expect(store.checkpoints.list('s')[0]?.afterCommit).toBe(first);
    const objects = join(shadowDir(root, project), 'objects');
    const size = du(objects);
    writeFileSync(join(project, 'f7.txt'), `${'line of text\n'.repeat(80)}changed\n`);
    prompt(store, project, 's', 2, 'two');
    await pc.before('s', 2);
    const grew = du(objects) - size;
    expect(grew).toBeGreaterThan(0);
    // Measured: 5.1 KB (the changed blob, the 200-entry tree, the commit), against 60 KB for the first checkpoint.
    expect(grew).toBeLessThan(8192);
  });

  test('a first checkpoint of many files is one pack, not a loose object a file; its changes count lines and rewind byte for byte', async () => {
    const { store, project, root, pc } = setUp();
    for (let d = 0; d < 10; d++) {
      mkdirSync(join(project, `d${d}`));
      for (let i = 0; i < 100; i++) writeFileSync(join(project, `d${d}`, `f${i}.txt`), `${'line\n'.repeat(5)}${d}-${i}\n`);
    }
    const before = treeState(project, []);
    prompt(store, project, 's', 1, 'edit');
    await pc.before('s', 1);
    const objects = join(shadowDir(root, project), 'objects');
    const loose = readdirSync(objects).filter((n) => /^[0-9a-f]{2}$/.test(n));
    // The 1,000 blobs went into a pack; what is loose is the trees and the commit (1 root + 10 folders + 1 commit at most).
    expect(readdirSync(join(objects, 'pack')).some((n) => n.endsWith('.pack'))).toBe(true);
    expect(loose.length).toBeLessThanOrEqual(12);
    writeFileSync(join(project, 'd3', 'f7.txt'), 'line\nchanged\n');
    writeFileSync(join(project, 'd4', 'new.txt'), 'new\n');
    await pc.after('s', 1);
    const points = await pc.points('s');
    // Line counts, not "binary": the pack setting is for staging only, not for diffs.
    expect(points[0]?.changes).toEqual([
      { path: 'd3/f7.txt', added: 1, removed: 5, binary: false },
      { path: 'd4/new.txt', added: 1, removed: 0, binary: false },
    ]);
    await pc.restore(await pc.plan('s', 1), { force: false });
    expect(treeState(project, [])).toEqual(before);
  });

  test('a fresh process on an unchanged tree reuses the noted tree without write-tree; a change, and a change undone, are recorded', async () => {
    const { store, project, root, pc } = setUp();
    for (let i = 0; i < 20; i++) writeFileSync(join(project, `f${i}.txt`), `${i}\n`);
    prompt(store, project, 's', 1, 'one');
    const first = await pc.before('s', 1);
    await pc.after('s', 1);
    const fresh = () => {
      const p = new ProjectCheckpoints(store, project, { root, maxFileBytes: 10 * 1024 * 1024 });
      return { p, calls: gitCalls(p) };
    };
    const a = fresh();
    prompt(store, project, 's', 2, 'two');
    expect(await a.p.before('s', 2)).toBe(first);
    expect(a.calls).not.toContain('write-tree');
    writeFileSync(join(project, 'f3.txt'), 'changed\n');
    const b = fresh();
    prompt(store, project, 's', 3, 'three');
    const changed = await b.p.before('s', 3);
    expect(changed).not.toBe(first);
    expect(await b.p.git.run(['show', `${changed}:f3.txt`])).toBe('changed\n');
    writeFileSync(join(project, 'f3.txt'), '3\n');
    const c = fresh();
    prompt(store, project, 's', 4, 'four');
    const undone = await c.p.before('s', 4);
    expect(await c.p.git.run(['rev-parse', `${undone}^{tree}`])).toBe(await c.p.git.run(['rev-parse', `${first}^{tree}`]));
  });

  test.if(process.platform === 'linux')('a checkpoint taken ahead in a fresh process is the checkpoint, without another git process; a change after it is not missed', async () => {
    const { store, project, root, pc } = setUp();
    for (let i = 0; i < 20; i++) writeFileSync(join(project, `f${i}.txt`), `${i}\n`);
    prompt(store, project, 's', 1, 'one');
    const first = await pc.before('s', 1);
    const fresh = async (sessionId: string, turn: number) => {
      prompt(store, project, sessionId, turn, `turn ${turn}`);
      const p = new ProjectCheckpoints(store, project, { root, maxFileBytes: 10 * 1024 * 1024 });
      await p.readAhead(sessionId, turn);
      return { p, calls: gitCalls(p) };
    };
    // Unchanged: the session's last checkpoint, nothing read or written.
    const a = await fresh('s', 2);
    expect(await a.p.before('s', 2)).toBe(first);
    expect(a.calls).toEqual([]);
    // A new file after the read ahead: git reads the tree, the file is in the checkpoint.
    const b = await fresh('s', 3);
    writeFileSync(join(project, 'new.txt'), 'new\n');
    const changed = await b.p.before('s', 3);
    expect(b.calls).toContain('ls-files');
    expect(await b.p.git.run(['show', `${changed}:new.txt`])).toBe('new\n');
    // A change made before the read ahead, in a new session: its first checkpoint, commit and ref, all taken ahead.
    writeFileSync(join(project, 'f1.txt'), 'one\n');
    const c = await fresh('n', 1);
    const own = await c.p.before('n', 1);
    expect(c.calls).toEqual([]);
    expect(await c.p.git.run(['show', `${own}:f1.txt`])).toBe('one\n');
    expect(await c.p.git.run(['show', `${own}:new.txt`])).toBe('new\n');
    expect((await c.p.git.run(['rev-parse', 'refs/moat/sessions/n'])).trim()).toBe(own);
  });

  test('ignored folders and files over the size limit are left out, and said to be', async () => {
    const { store, project, pc } = setUp(1000);
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    mkdirSync(join(project, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(project, 'node_modules', 'x', 'i.js'), 'ignored\n');
    writeFileSync(join(project, 'big.bin'), Buffer.alloc(2000, 1));
    writeFileSync(join(project, 'a.txt'), 'a\n');
    prompt(store, project, 's', 1, 'go');
    const commit = await pc.before('s', 1);
    const files = (await pc.git.run(['ls-tree', '-r', '--name-only', commit])).trim().split('\n');
    expect(files).toEqual(['.gitignore', 'a.txt']);
    expect(store.checkpoints.list('s')[0]?.leftOut).toEqual([{ path: 'big.bin', reason: 'too_large', size: 2000 }]);
    expect(await pc.ignoredFolders()).toEqual(['node_modules/']);
  });

  test('the rewind list gives each user message and what its run changed', async () => {
    const { store, project, pc } = setUp();
    writeFileSync(join(project, 'a.txt'), 'a\nb\n');
    prompt(store, project, 's', 1, 'read only');
    prompt(store, project, 's', 2, 'edit');
    await pc.before('s', 2);
    writeFileSync(join(project, 'a.txt'), 'a\nB\nc\n');
    await pc.after('s', 2);
    const points = await pc.points('s');
    expect(points.map((p) => ({ index: p.index, text: p.text, changes: p.changes, codeRestorable: p.codeRestorable }))).toEqual([
      { index: 1, text: 'read only', changes: [], codeRestorable: true },
      { index: 2, text: 'edit', changes: [{ path: 'a.txt', added: 2, removed: 1, binary: false }], codeRestorable: true },
    ]);
  });

  test('a damaged shadow repository fails the first checkpoint with one clear line; the hook is off after it', async () => {
    const { store, project, root, pc } = setUp();
    writeFileSync(join(project, 'a.txt'), 'a\n');
    mkdirSync(root, { recursive: true });
    // A file where the repository's folder should be.
    writeFileSync(shadowDir(root, project), 'not a folder');
    prompt(store, project, 's', 1, 'go');
    const hook = turnHook(pc, store, { keepDays: 30, maxFileBytes: 10 * 1024 * 1024 }, root);
    const failure = await hook.before('s', 1).then(() => 'no error', (e: unknown) => (e as Error).message);
    expect(failure).not.toContain('\n');
    expect(failure).toMatch(/EEXIST|ENOTDIR|not a directory|damaged/);
    expect(await hook.before('s', 1)).toBeUndefined();
  });

  test('retention removes old checkpoints and their ref (objects go at a prune once an hour old)', async () => {
    const { store, project, root, pc } = setUp();
    writeFileSync(join(project, 'a.txt'), 'a\n');
    prompt(store, project, 's', 1, 'go');
    await pc.before('s', 1);
    expect((await pc.git.run(['for-each-ref', '--format=%(refname)'])).trim()).toBe('refs/moat/sessions/s');
    await applyRetention(store, root, 30, Date.now() + 31 * 24 * 60 * 60 * 1000);
    expect(store.checkpoints.list('s')).toEqual([]);
    expect((await pc.git.run(['for-each-ref'])).trim()).toBe('');
    expect(existsSync(join(root, 'last-retention'))).toBe(true);
  });

  test('forget (sessions rm) drops the session ref', async () => {
    const { store, project, pc } = setUp();
    writeFileSync(join(project, 'a.txt'), 'a\n');
    prompt(store, project, 's', 1, 'go');
    await pc.before('s', 1);
    await pc.forget('s');
    expect((await pc.git.run(['for-each-ref'])).trim()).toBe('');
    expect(sha(join(project, 'a.txt'))).toBe(createHash('sha256').update('a\n').digest('hex'));
  });
});
