import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addPermissionRule, loadConfig, removePermissionRule, trustProject } from '../../src/config/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp, write } from './tmp.ts';

const tmp = useTmp();

/** A repo with `.moat/config.toml` holding `text` (or no file when undefined). */
function repo(text?: string): { dir: string; file: string; reload: () => { allow: string[]; deny: string[] } } {
  const dir = tmp();
  mkdirSync(join(dir, '.git'));
  const file = join(dir, '.moat', 'config.toml');
  if (text !== undefined) write(file, text);
  // The user trusts this folder: without trust its allow rules would be ignored (project-trust.ts).
  trustProject(dir, join(dir, 'home', '.config', 'moat'));
  const reload = () => {
    const { allow, deny } = loadConfig({ cwd: dir, env: { HOME: join(dir, 'home') } }).config.permissions;
    return { allow, deny };
  };
  return { dir, file, reload };
}

function edit(text: string | undefined, list: 'allow' | 'deny', rule: string): { text: string; perms: { allow: string[]; deny: string[] } } {
  const r = repo(text);
  expect(addPermissionRule(r.file, list, rule)).toBe(true);
  return { text: readFileSync(r.file, 'utf8'), perms: r.reload() };
}

describe('addPermissionRule', () => {
  test('creates .moat/config.toml when missing, and the rule sticks on reload', () => {
    const r = repo();
    expect(addPermissionRule(r.file, 'allow', 'Bash(npm test:*)')).toBe(true);
    expect(readFileSync(r.file, 'utf8')).toBe('[permissions]\nallow = ["Bash(npm test:*)"]\n');
    expect(r.reload()).toEqual({ allow: ['Bash(npm test:*)'], deny: [] });
  });

  test('is idempotent: the same rule again changes nothing', () => {
    const r = repo('[permissions]\nallow = ["Read"]\n');
    expect(addPermissionRule(r.file, 'allow', 'Edit')).toBe(true);
    const once = readFileSync(r.file, 'utf8');
    expect(addPermissionRule(r.file, 'allow', 'Edit')).toBe(false);
    expect(addPermissionRule(r.file, 'allow', '  Edit ')).toBe(false);
    expect(readFileSync(r.file, 'utf8')).toBe(once);
    expect(r.reload()).toEqual({ allow: ['Read', 'Edit'], deny: [] });
  });

  test('single-line arrays keep their layout and trailing comment', () => {
    expect(edit('# top\n[permissions]\nallow = ["Read"] # keep me\ndeny = []\n', 'allow', 'Edit')).toEqual({
      text: '# top\n[permissions]\nallow = ["Read", "Edit"] # keep me\ndeny = []\n',
      perms: { allow: ['Read', 'Edit'], deny: [] },
    });
    expect(edit('[permissions]\ndeny = [ ]\n', 'deny', 'Bash(rm:*)')).toEqual({
      text: '[permissions]\ndeny = ["Bash(rm:*)" ]\n',
      perms: { allow: [], deny: ['Bash(rm:*)'] },
    });
  });

  test('multi-line arrays get a new line with the same indent, comments kept', () => {
    expect(edit('[permissions]\nallow = [\n    "Read",  # reading is fine\n    "Glob",\n]\n', 'allow', 'Grep')).toEqual({
      text: '[permissions]\nallow = [\n    "Read",  # reading is fine\n    "Glob",\n    "Grep",\n]\n',
      perms: { allow: ['Read', 'Glob', 'Grep'], deny: [] },
    });
    // No trailing comma on the last element: one is added.
    expect(edit('[permissions]\nallow = [\n  "Read" # last\n]\n', 'allow', 'Grep')).toEqual({
      text: '[permissions]\nallow = [\n  "Read", # last\n  "Grep",\n]\n',
      perms: { allow: ['Read', 'Grep'], deny: [] },
    });
    expect(edit('[permissions]\nallow = [\n  "Read", "Glob"]\n', 'allow', 'Grep')).toEqual({
      text: '[permissions]\nallow = [\n  "Read", "Glob",\n  "Grep"]\n',
      perms: { allow: ['Read', 'Glob', 'Grep'], deny: [] },
    });
    expect(edit('[permissions]\nallow = [\n]\n', 'allow', 'Grep')).toEqual({
      text: '[permissions]\nallow = [\n  "Grep",\n]\n',
      perms: { allow: ['Grep'], deny: [] },
    });
  });

  test('a [permissions] table without the list gets it after its last key', () => {
    expect(edit('model = "m"\n\n[permissions]\ndeny = ["Bash(rm:*)"] # no\n\n# end\n', 'allow', 'Read')).toEqual({
      text: 'model = "m"\n\n[permissions]\ndeny = ["Bash(rm:*)"] # no\nallow = ["Read"]\n\n# end\n',
      perms: { allow: ['Read'], deny: ['Bash(rm:*)'] },
    });
    expect(edit('[permissions]\n# nothing yet', 'deny', 'WebFetch')).toEqual({
      text: '[permissions]\ndeny = ["WebFetch"]\n# nothing yet',
      perms: { allow: [], deny: ['WebFetch'] },
    });
  });

  test('a file without permissions gets a [permissions] table at the end, the rest untouched', () => {
    expect(edit('# my config\nmodel = "m" # pinned\nmax_turns = 5', 'allow', 'Read')).toEqual({
      text: '# my config\nmodel = "m" # pinned\nmax_turns = 5\n\n[permissions]\nallow = ["Read"]\n',
      perms: { allow: ['Read'], deny: [] },
    });
  });

  test('dotted keys at the root get a dotted sibling', () => {
    expect(edit('permissions.deny = ["Bash(rm:*)"]\nmodel = "m"\n', 'allow', 'Read')).toEqual({
      text: 'permissions.deny = ["Bash(rm:*)"]\npermissions.allow = ["Read"]\nmodel = "m"\n',
      perms: { allow: ['Read'], deny: ['Bash(rm:*)'] },
    });
  });

  test('inline tables: an existing list is extended, a missing one is a clear error', () => {
    expect(edit('permissions = { allow = ["Read"] }\n', 'allow', 'Edit')).toEqual({
      text: 'permissions = { allow = ["Read", "Edit"] }\n',
      perms: { allow: ['Read', 'Edit'], deny: [] },
    });
    const r = repo('model = "m"\npermissions = { allow = ["Read"] }\n');
    expect(() => addPermissionRule(r.file, 'deny', 'Edit', '.moat/config.toml')).toThrow(
      new MoatError('config', '.moat/config.toml:2: permissions is an inline table; add "Edit" to deny by hand'),
    );
  });

  test('rules with quotes and backslashes round-trip', () => {
    const rule = 'Bash(grep "a\\b" src:*)';
    const { perms } = edit('[permissions]\nallow = ["Read"]\n', 'allow', rule);
    expect(perms).toEqual({ allow: ['Read', rule], deny: [] });
  });

  test('a broken file is reported, not edited', () => {
    const r = repo('max_turns = "x"\n');
    expect(() => addPermissionRule(r.file, 'allow', 'Read', '.moat/config.toml')).toThrow(
      new MoatError('config', '.moat/config.toml:1: max_turns: expected a number, got a string ("x")'),
    );
    expect(readFileSync(r.file, 'utf8')).toBe('max_turns = "x"\n');
  });

  test('the user config file and its folder are created too', () => {
    const home = tmp();
    const file = join(home, '.config', 'moat', 'config.toml');
    expect(addPermissionRule(file, 'deny', 'WebFetch')).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(loadConfig({ cwd: tmp(), env: { HOME: home } }).config.permissions).toEqual({ allow: [], deny: ['WebFetch'], ask: [] });
  });
});

describe('removePermissionRule', () => {
  function remove(text: string, list: 'allow' | 'deny', rule: string) {
    const r = repo(text);
    const removed = removePermissionRule(r.file, list, rule);
    return { removed, text: readFileSync(r.file, 'utf8'), perms: r.reload() };
  }

  test('single-line arrays: first, middle, last and only element', () => {
    const base = '[permissions]\nallow = ["Read", "Edit", "Grep"] # keep me\n';
    expect(remove(base, 'allow', 'Read').text).toBe('[permissions]\nallow = ["Edit", "Grep"] # keep me\n');
    expect(remove(base, 'allow', 'Edit').text).toBe('[permissions]\nallow = ["Read", "Grep"] # keep me\n');
    expect(remove(base, 'allow', 'Grep').text).toBe('[permissions]\nallow = ["Read", "Edit"] # keep me\n');
    expect(remove('[permissions]\ndeny = ["Bash(rm:*)"]\n', 'deny', 'Bash(rm:*)')).toEqual({
      removed: true,
      text: '[permissions]\ndeny = []\n',
      perms: { allow: [], deny: [] },
    });
  });

  test('multi-line arrays lose the rule line (with its comment); other comments stay', () => {
    const text = '# top\n[permissions]\nallow = [\n  "Read",  # reading is fine\n  "Bash(npm test:*)", # tests\n  "Glob"\n]\n';
    expect(remove(text, 'allow', 'Bash(npm test:*)')).toEqual({
      removed: true,
      text: '# top\n[permissions]\nallow = [\n  "Read",  # reading is fine\n  "Glob"\n]\n',
      perms: { allow: ['Read', 'Glob'], deny: [] },
    });
    // The closing bracket on the rule's line stays.
    expect(remove('[permissions]\nallow = [\n  "Read",\n  "Glob"]\n', 'allow', 'Glob').text).toBe('[permissions]\nallow = [\n  "Read",\n  ]\n');
  });

  test('dotted keys, literal strings and every copy of the rule', () => {
    expect(remove("permissions.allow = ['Read', \"Edit\", 'Read']\n", 'allow', 'Read')).toEqual({
      removed: true,
      text: 'permissions.allow = ["Edit"]\n',
      perms: { allow: ['Edit'], deny: [] },
    });
  });

  test('is idempotent: an absent rule, list or file changes nothing and returns false', () => {
    const r = repo('[permissions]\nallow = ["Read"]\n');
    expect(removePermissionRule(r.file, 'allow', 'Edit')).toBe(false);
    expect(removePermissionRule(r.file, 'deny', 'Read')).toBe(false);
    expect(readFileSync(r.file, 'utf8')).toBe('[permissions]\nallow = ["Read"]\n');
    expect(removePermissionRule(r.file, 'allow', ' Read ')).toBe(true);
    expect(removePermissionRule(r.file, 'allow', 'Read')).toBe(false);
    const missing = repo();
    expect(removePermissionRule(missing.file, 'allow', 'Read')).toBe(false);
    expect(existsSync(missing.file)).toBe(false);
  });

  test('a broken file is reported, not edited', () => {
    const r = repo('[permissions]\nallow = ["Read"\n');
    expect(() => removePermissionRule(r.file, 'allow', 'Read')).toThrow(MoatError);
    expect(readFileSync(r.file, 'utf8')).toBe('[permissions]\nallow = ["Read"\n');
  });
});
