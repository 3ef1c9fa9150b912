import { describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KEYMAP_ACTIONS, loadConfig, normalizeKeySpec } from '../../src/config/index.ts';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp, write } from './tmp.ts';

const tmp = useTmp();

/** A repo with the given user and project config files; returns the load result or its one-line error. */
function load(project: string, user?: string): { keymap?: unknown; error?: string } {
  const dir = tmp();
  mkdirSync(join(dir, '.git'));
  const home = join(dir, 'home');
  write(join(dir, '.moat', 'config.toml'), project);
  if (user !== undefined) write(join(home, '.config', 'moat', 'config.toml'), user);
  try {
    return { keymap: loadConfig({ cwd: dir, env: { HOME: home } }).config.keymap };
  } catch (e) {
    if (e instanceof MoatError) return { error: e.message };
    throw e;
  }
}

const F = '.moat/config.toml';

describe('[keymap]', () => {
  test('every action has a default binding, and every default is a key config accepts, in normal form', () => {
    expect(Object.keys(DEFAULT_KEYMAP).sort()).toEqual([...KEYMAP_ACTIONS].sort());
    for (const chords of Object.values(DEFAULT_KEYMAP)) for (const c of chords) expect(normalizeKeySpec(c)).toBe(c);
  });

  test('keys are normalised; the project overrides the user per action', () => {
    expect(load('[keymap]\nsubmit = "Ctrl+S"\nnewline = ["Meta+Return", "ctrl+j"]\n', '[keymap]\nsubmit = "ctrl+x"\nexpand = "ctrl+e"\n')).toEqual({
      keymap: { submit: ['ctrl+s'], newline: ['alt+enter', 'ctrl+j'], expand: ['ctrl+e'] },
    });
    expect(load('model = "m"\n')).toEqual({ keymap: {} });
  });

  test('an unknown action or a bad key names the file, the line and the key', () => {
    expect(load('[keymap]\nsubmit = "enter"\ncycle_mode = "ctrl+t"\n')).toEqual({ error: `${F}:3: keymap.cycle_mode: unknown key (did you mean cycleMode?)` });
    expect(load('[keymap]\n\nexpand = "hyper+o"\n')).toEqual({
      error: `${F}:3: keymap.expand: unknown modifier "hyper" in "hyper+o" (modifiers: ctrl, alt, shift)`,
    });
    expect(load('[keymap]\nnewline = [\n  "alt+enter",\n  "ctrl+jj",\n]\n').error).toBe(
      `${F}:4: keymap.newline[1]: unknown key "jj" in "ctrl+jj" (a character, or one of enter, escape, tab, backspace, delete, up, down, left, right, home, end, pageup, pagedown, space)`,
    );
    expect(load('[keymap]\nsubmit = 3\n')).toEqual({ error: `${F}:2: keymap.submit: expected a key ("ctrl+o") or a list of keys (["alt+enter", "ctrl+j"])` });
    expect(load('[keymap]\nsubmit = []\n').error).toStartWith(`${F}:2: keymap.submit: expected a key`);
  });

  test('key grammar: aliases, the plus key, and what can never be typed', () => {
    expect(normalizeKeySpec(' Shift+Ctrl+Tab ')).toBe('ctrl+shift+tab');
    expect(normalizeKeySpec('option+b')).toBe('alt+b');
    expect(normalizeKeySpec('esc')).toBe('escape');
    expect(normalizeKeySpec('ctrl++')).toBe('ctrl++');
    expect(() => normalizeKeySpec('')).toThrow('empty key');
    expect(() => normalizeKeySpec('ctrl+')).toThrow('empty key');
  });
});
