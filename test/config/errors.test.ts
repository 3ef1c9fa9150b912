import { describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, parseConfigText } from '../../src/config/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp, write } from './tmp.ts';

const tmp = useTmp();

/** The one-line error for a project config file holding `text`, as the user sees it. */
function errorFor(text: string): { code: string; message: string } {
  const dir = tmp();
  mkdirSync(join(dir, '.git'));
  write(join(dir, '.moat', 'config.toml'), text);
  try {
    loadConfig({ cwd: dir, env: { HOME: join(dir, 'home') } });
  } catch (e) {
    if (e instanceof MoatError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a config error');
}

const F = '.moat/config.toml';

describe('config file errors: one line, FILE:LINE: key.path: what', () => {
  test('TOML syntax error, with the line smol-toml reports', () => {
    expect(errorFor('model = "a"\nmax_turns = \n')).toEqual({
      code: 'config',
      message: `${F}:2: invalid TOML: invalid value`,
    });
    expect(errorFor('[permissions]\nallow = ["a",\n"b"\n')).toEqual({
      code: 'config',
      message: `${F}:4: invalid TOML: expected comma or end of structure`,
    });
  });

  test('wrong type', () => {
    expect(errorFor('# c\n\nmax_turns = "ten"\n')).toEqual({
      code: 'config',
      message: `${F}:3: max_turns: expected a number, got a string ("ten")`,
    });
    expect(errorFor('model = 4\n')).toEqual({ code: 'config', message: `${F}:1: model: expected a string, got a number (4)` });
    expect(errorFor('add_dirs = "src"\n')).toEqual({
      code: 'config',
      message: `${F}:1: add_dirs: expected an array, got a string ("src")`,
    });
  });

  test('bad enum value', () => {
    expect(errorFor('model = "x"\npermission_mode = "auto"\n')).toEqual({
      code: 'config',
      message: `${F}:2: permission_mode: must be one of default, acceptEdits, plan, bypassPermissions, dontAsk (got "auto")`,
    });
  });

  test('negative and zero numbers', () => {
    expect(errorFor('max_budget_usd = -1\n')).toEqual({
      code: 'config',
      message: `${F}:1: max_budget_usd: must be greater than 0 (got -1)`,
    });
    expect(errorFor('\nbash_timeout = 0\n')).toEqual({ code: 'config', message: `${F}:2: bash_timeout: must be greater than 0 (got 0)` });
  });

  test('a bad element of a multi-line array points at the element', () => {
    expect(errorFor('[permissions]\nallow = [\n  "Read",\n  # comment\n  42,\n]\n')).toEqual({
      code: 'config',
      message: `${F}:5: permissions.allow[1]: expected a string, got a number (42)`,
    });
  });

  test('unknown keys: at the root, in a table (with a hint), dotted', () => {
    expect(errorFor('model = "x"\nmodle_name = "y"\n')).toEqual({ code: 'config', message: `${F}:2: modle_name: unknown key` });
    expect(errorFor('model = "x"\n\n[permissions]\nallow = []\nalow = ["Read"]\n')).toEqual({
      code: 'config',
      message: `${F}:5: permissions.alow: unknown key (did you mean allow?)`,
    });
    expect(errorFor('permissions.prompt = ["Bash"]\n')).toEqual({ code: 'config', message: `${F}:1: permissions.prompt: unknown key` });
    expect(errorFor('max_turns = 3\n\n[keymap]\nsubmit = "enter"\nsubmti = "ctrl+s"\n')).toEqual({
      code: 'config',
      message: `${F}:5: keymap.submti: unknown key (did you mean submit?)`,
    });
    expect(errorFor('max_turn = 3\n')).toEqual({ code: 'config', message: `${F}:1: max_turn: unknown key (did you mean max_turns?)` });
  });

  test('inline tables point at the key inside them', () => {
    expect(errorFor('model = "x"\npermissions = { allow = ["Read"], deny = [true] }\n')).toEqual({
      code: 'config',
      message: `${F}:2: permissions.deny[0]: expected a string, got a boolean (true)`,
    });
  });

  test('with several problems, the one nearest the top is reported', () => {
    expect(errorFor('model = "x"\nmax_tokens = -5\n[permissions]\nallow = [1]\n')).toEqual({
      code: 'config',
      message: `${F}:2: max_tokens: must be greater than 0 (got -5)`,
    });
    expect(errorFor('zzz = 1\nmodel = 3\n')).toEqual({ code: 'config', message: `${F}:1: zzz: unknown key` });
  });

  test('an unreadable file is one line too', () => {
    const dir = tmp();
    mkdirSync(join(dir, '.moat', 'config.toml'), { recursive: true });
    let err: unknown;
    try {
      loadConfig({ cwd: dir, env: { HOME: join(dir, 'home') } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MoatError);
    expect((err as MoatError).message).toStartWith(`${F}: cannot read: EISDIR`);
    expect((err as MoatError).message.includes('\n')).toBe(false);
  });

  test('errors are user errors (no stack trace) and the user file is shown with ~', () => {
    const home = tmp();
    write(join(home, '.config', 'moat', 'config.toml'), 'max_turns = -2\n');
    let err: unknown;
    try {
      loadConfig({ cwd: tmp(), env: { HOME: home } });
    } catch (e) {
      err = e;
    }
    expect([(err as MoatError).user, (err as MoatError).message]).toEqual([
      true,
      '~/.config/moat/config.toml:1: max_turns: must be greater than 0 (got -2)',
    ]);
  });

  test('parseConfigText accepts a full, valid file', () => {
    const text = [
      'model = "claude-x"',
      'max_turns = 30',
      'max_budget_usd = 5',
      'permission_mode = "plan"',
      'add_dirs = ["../lib"]',
      'stream_idle_timeout = 45',
      'bash_timeout = 600',
      'api_base_url = "https://proxy.example/v1"',
      'max_tokens = 64000',
      'thinking_budget = 16000',
      '[permissions]',
      "allow = ['Bash(git status)']",
      'deny = []',
    ].join('\n');
    expect(parseConfigText(text, '/x/config.toml').data).toEqual({
      model: 'claude-x',
      max_turns: 30,
      max_budget_usd: 5,
      permission_mode: 'plan',
      add_dirs: ['../lib'],
      stream_idle_timeout: 45,
      bash_timeout: 600,
      api_base_url: 'https://proxy.example/v1',
      max_tokens: 64000,
      thinking_budget: 16000,
      permissions: { allow: ['Bash(git status)'], deny: [] },
    });
  });
});
