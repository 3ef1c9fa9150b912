/**
 * Every key binding of the TUI, in one table that config can override
 * (`[keymap]` in config.toml: `submit = "enter"`, `newline = ["alt+enter", "ctrl+j"]`).
 * Components ask "which action is this key?" and never compare raw keys.
 */
import type { Key } from 'ink';
import { KEYMAP_ACTIONS, normalizeKeySpec, type KeymapAction } from '../config/index.ts';

/**
 * The action names live in config (`[keymap]` validates against them, and config
 * may not import the TUI); the TUI binds exactly those.
 */
export const KEY_ACTIONS = KEYMAP_ACTIONS;

export type KeyAction = KeymapAction;

/** A chord such as `ctrl+a`, `alt+enter`, `shift+tab`, `escape`, `up`. */
export type KeyChord = string;

export type Keymap = Readonly<Record<KeyAction, readonly KeyChord[]>>;

/** What config may give: any subset of actions, one chord or several each. */
export type KeymapOverrides = Partial<Record<KeyAction, KeyChord | KeyChord[]>>;

export const DEFAULT_KEYMAP: Keymap = {
  interrupt: ['escape'],
  clearOrExit: ['ctrl+c'],
  exit: ['ctrl+d'],
  cycleMode: ['shift+tab'],
  expand: ['ctrl+o'],
  submit: ['enter'],
  newline: ['alt+enter', 'ctrl+j'],
  cursorLeft: ['left', 'ctrl+b'],
  cursorRight: ['right', 'ctrl+f'],
  wordLeft: ['alt+b', 'ctrl+left', 'alt+left'],
  wordRight: ['alt+f', 'ctrl+right', 'alt+right'],
  lineStart: ['ctrl+a', 'home'],
  lineEnd: ['ctrl+e', 'end'],
  deleteBack: ['backspace'],
  deleteForward: ['delete'],
  deleteWordBack: ['ctrl+w', 'alt+backspace'],
  deleteToStart: ['ctrl+u'],
  deleteToEnd: ['ctrl+k'],
  historyPrev: ['up', 'ctrl+p'],
  historyNext: ['down', 'ctrl+n'],
  complete: ['tab'],
  menuUp: ['up', 'ctrl+p'],
  menuDown: ['down', 'ctrl+n'],
  accept: ['enter', 'tab'],
  cancel: ['escape'],
};

const NAMED_KEYS = new Set(['enter', 'escape', 'tab', 'backspace', 'delete', 'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown', 'space']);

/**
 * Canonical form: modifiers in a fixed order, lower case. Throws on a chord
 * that can never match. The grammar is config's, so a `[keymap]` entry that
 * loaded is one the TUI can match.
 */
export function normalizeChord(chord: string): KeyChord {
  return normalizeKeySpec(chord);
}

/** The default keymap with config overrides applied. Unknown actions and bad chords are reported, not fatal. */
export function buildKeymap(overrides: KeymapOverrides | Record<string, unknown> = {}): { keymap: Keymap; errors: string[] } {
  const errors: string[] = [];
  const map: Record<string, readonly KeyChord[]> = { ...DEFAULT_KEYMAP };
  for (const [action, value] of Object.entries(overrides)) {
    if (!(KEY_ACTIONS as readonly string[]).includes(action)) {
      errors.push(`keymap: unknown action "${action}" (known: ${KEY_ACTIONS.join(', ')})`);
      continue;
    }
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (!list || list.some((v) => typeof v !== 'string')) {
      errors.push(`keymap.${action}: expected a key chord or a list of them`);
      continue;
    }
    try {
      map[action] = list.map((c) => normalizeChord(String(c)));
    } catch (e) {
      errors.push(`keymap.${action}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { keymap: map as Keymap, errors };
}

/**
 * The chord Ink reported, or undefined for plain typed text (which is input,
 * not a binding). Ink gives ctrl+letter as input "a" with key.ctrl, Alt+x as
 * "x" with key.meta, and Alt+Enter as key.return with key.meta. Ctrl-J is a
 * line feed, which Ink passes on as the typed text "\n" with no flag: it is
 * named here, so it follows the keymap (`newline` by default) instead of
 * always inserting a line.
 */
export function chordOf(input: string, key: Key): KeyChord | undefined {
  if (input === '\n' && !key.ctrl && !key.meta && !key.return) return 'ctrl+j';
  let name: string | undefined;
  if (key.return) name = 'enter';
  else if (key.escape) name = 'escape';
  else if (key.tab) name = 'tab';
  else if (key.backspace) name = 'backspace';
  else if (key.delete) name = 'delete';
  else if (key.upArrow) name = 'up';
  else if (key.downArrow) name = 'down';
  else if (key.leftArrow) name = 'left';
  else if (key.rightArrow) name = 'right';
  else if (key.home) name = 'home';
  else if (key.end) name = 'end';
  else if (key.pageUp) name = 'pageup';
  else if (key.pageDown) name = 'pagedown';
  else if ([...input].length === 1 && (key.ctrl || key.meta)) name = input === ' ' ? 'space' : input.toLowerCase();
  if (name === undefined) return undefined;
  const special = NAMED_KEYS.has(name);
  const mods: string[] = [];
  if (key.ctrl) mods.push('ctrl');
  if (key.meta) mods.push('alt');
  // Shift only counts on named keys: "A" is typed text, not shift+a.
  if (key.shift && special) mods.push('shift');
  return [...mods, name].join('+');
}

/** The first of `actions` bound to this key, in the order given (callers list the most specific first). */
export function matchAction<A extends KeyAction>(keymap: Keymap, chord: KeyChord | undefined, actions: readonly A[]): A | undefined {
  if (chord === undefined) return undefined;
  return actions.find((a) => keymap[a].includes(chord));
}

/** `ctrl+o` → `Ctrl-O`, for help text and hints. */
export function describeChord(chord: KeyChord): string {
  return chord
    .split('+')
    .map((p) => (p.length === 1 ? p.toUpperCase() : p === 'escape' ? 'Esc' : p[0]!.toUpperCase() + p.slice(1)))
    .join('-');
}
