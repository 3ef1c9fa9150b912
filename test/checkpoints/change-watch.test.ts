/** The change watch: each kind of change a checkpoint must not miss marks the project changed; reads and ignored folders do not; and checkpoints taken through it record every change. */
import { describe, expect, test } from 'bun:test';
import { appendFileSync, chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectCheckpoints } from '../../src/checkpoints/index.ts';
import { ChangeWatch } from '../../src/checkpoints/change-watch.ts';
import { openStore } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';

function project(): { root: string; state: string } {
  const dir = tempDir('moat-watch-');
  const root = join(dir, 'project');
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  mkdirSync(join(root, 'empty'));
  writeFileSync(join(root, 'src', 'a.ts'), 'a\n');
  writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'b\n');
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
  return { root, state: join(dir, 'state') };
}

/** Arms the watch as a checkpoint does and says it recorded the tree. */
async function armed(w: ChangeWatch, ignored: string[] = ['node_modules/']): Promise<void> {
  expect(await w.arm(async () => ignored)).toBe(true);
  w.recorded = { tree: 't', leftOut: [], at: Date.now() };
}

describe.if(process.platform === 'linux')('change watch', () => {
  const changes: [string, (root: string) => void][] = [
    ['a file appended to', (r) => appendFileSync(join(r, 'src', 'a.ts'), 'more\n')],
    ['a file in a nested folder rewritten', (r) => writeFileSync(join(r, 'src', 'deep', 'b.ts'), 'B\n')],
    ['a new file', (r) => writeFileSync(join(r, 'src', 'new.ts'), '')],
    ['a file in a folder that was empty', (r) => writeFileSync(join(r, 'empty', 'x'), '')],
    ['a file removed', (r) => rmSync(join(r, 'src', 'a.ts'))],
    ['a file renamed', (r) => renameSync(join(r, 'src', 'a.ts'), join(r, 'src', 'c.ts'))],
    ['a mode change', (r) => chmodSync(join(r, 'src', 'a.ts'), 0o755)],
    ['.gitignore edited', (r) => writeFileSync(join(r, '.gitignore'), '')],
  ];
  for (const [what, change] of changes) {
    test(`${what} is seen`, async () => {
      const p = project();
      const w = new ChangeWatch(p.root, p.state);
      await armed(w);
      expect(await w.unchanged()).toBe(true);
      change(p.root);
      expect(await w.unchanged()).toBe(false);
      w.close();
    });
  }

  test('reads and changes in ignored folders are not changes; a folder made after arming is watched after the next', async () => {
    const p = project();
    const w = new ChangeWatch(p.root, p.state);
    await armed(w);
    readFileSync(join(p.root, 'src', 'a.ts'));
    writeFileSync(join(p.root, 'node_modules', 'dep', 'index.js'), 'x');
    expect(await w.unchanged()).toBe(true);
    mkdirSync(join(p.root, 'src', 'later'));
    expect(await w.unchanged()).toBe(false);
    await armed(w);
    expect(await w.unchanged()).toBe(true);
    writeFileSync(join(p.root, 'src', 'later', 'f'), '');
    expect(await w.unchanged()).toBe(false);
    w.close();
  });

  test('nothing recorded yet, or a closed watch: not known to be unchanged', async () => {
    const p = project();
    const w = new ChangeWatch(p.root, p.state);
    expect(await w.unchanged()).toBe(false);
    await armed(w);
    w.close();
    expect(await w.unchanged()).toBe(false);
  });
});

describe('checkpoints through the change watch', () => {
  test('every change between checkpoints is recorded, none is invented', async () => {
    const p = project();
    const store = openStore(join(p.state, 'moat.db'));
    store.sessions.create({ id: 's', cwd: p.root, projectRoot: p.root, model: 'm', permissionMode: 'default' });
    const pc = new ProjectCheckpoints(store, p.root, { root: join(p.state, 'checkpoints'), maxFileBytes: 1024 * 1024 });
    const first = await pc.before('s', 1);
    await pc.after('s', 1);
    expect(await pc.before('s', 2)).toBe(first);
    const edits: ((r: string) => void)[] = [
      (r) => appendFileSync(join(r, 'src', 'a.ts'), 'x\n'),
      (r) => writeFileSync(join(r, 'empty', 'y'), 'y'),
      (r) => chmodSync(join(r, 'src', 'deep', 'b.ts'), 0o755),
      (r) => rmSync(join(r, 'src', 'a.ts')),
    ];
    let last = first;
    let turn = 3;
    for (const edit of edits) {
      edit(p.root);
      const next = await pc.before('s', turn++);
      expect(next).not.toBe(last);
      expect(await pc.before('s', turn++)).toBe(next);
      last = next;
    }
    const tree = await pc.git.run(['ls-tree', '-r', last]);
    expect(tree).toContain('100755 blob');
    expect(tree).toContain('empty/y');
    expect(tree).not.toContain('src/a.ts');
    store.close();
  });
});
