/**
 * `[keymap]` in config.toml: the TUI's key bindings, by action name.
 *
 *   [keymap]
 *   submit = "ctrl+s"
 *   newline = ["alt+enter", "ctrl+j"]
 *
 * Config may not import the TUI (ARCHITECTURE.md), so the action names are
 * defined here and the TUI binds exactly these. The key grammar lives here
 * too: the TUI normalises its own defaults with `normalizeKeySpec`, so what
 * config accepts is exactly what the TUI can match.
 */
import { z } from 'zod';
import { once } from '../util/index.ts';

export const KEYMAP_ACTIONS = [
  // Whole app
  'interrupt', // stop the running turn (Esc)
  'clearOrExit', // clear the input / interrupt; twice within 2 s exits
  'exit', // on an empty prompt: exit (Ctrl-D)
  'cycleMode', // default → acceptEdits → plan
  'expand', // show the last collapsed thinking / tool output in full
  // Prompt editing
  'submit',
  'newline',
  'cursorLeft',
  'cursorRight',
  'wordLeft',
  'wordRight',
  'lineStart',
  'lineEnd',
  'deleteBack',
  'deleteForward',
  'deleteWordBack',
  'deleteToStart',
  'deleteToEnd',
  'historyPrev',
  'historyNext',
  'complete',
  // Menus, pickers, dialogs
  'menuUp',
  'menuDown',
  'accept',
  'cancel',
] as const;

export type KeymapAction = (typeof KEYMAP_ACTIONS)[number];

/** Action → its keys, normalised (`ctrl+o`); only the actions the config sets. */
export type KeymapConfig = Partial<Record<KeymapAction, string[]>>;

const MODIFIERS = ['ctrl', 'alt', 'shift'] as const;
const MODIFIER_ALIASES: Record<string, string> = { meta: 'alt', option: 'alt', control: 'ctrl' };
const KEY_ALIASES: Record<string, string> = { esc: 'escape', return: 'enter', del: 'delete' };
const NAMED_KEYS = new Set(['enter', 'escape', 'tab', 'backspace', 'delete', 'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown', 'space']);

/**
 * `Ctrl+O` → `ctrl+o`: modifiers in a fixed order, lower case, aliases
 * resolved (`meta`/`option` → alt, `esc` → escape, `return` → enter).
 * Throws an Error saying what is wrong for a key no terminal can send.
 */
export function normalizeKeySpec(spec: string): string {
  const parts = spec.trim().toLowerCase().split('+');
  const last = parts.pop();
  // `ctrl++` is the plus key.
  const name = last === '' && parts.length > 0 && parts[parts.length - 1] === '' ? (parts.pop(), '+') : last;
  if (name === undefined || name === '') throw new Error(`empty key "${spec}"`);
  const mods = new Set<string>();
  for (const p of parts) {
    const m = MODIFIER_ALIASES[p] ?? p;
    if (!(MODIFIERS as readonly string[]).includes(m)) throw new Error(`unknown modifier "${p}" in "${spec}" (modifiers: ctrl, alt, shift)`);
    mods.add(m);
  }
  const key = KEY_ALIASES[name] ?? name;
  if (!NAMED_KEYS.has(key) && [...key].length !== 1) {
    throw new Error(`unknown key "${name}" in "${spec}" (a character, or one of ${[...NAMED_KEYS].join(', ')})`);
  }
  return [...MODIFIERS.filter((m) => mods.has(m)), key].join('+');
}

/** The `[keymap]` table's shape, built on first use (start-up builds no config schema it does not parse with). */
export const keymapShape = once(() => {
  /** One action's value: a key or a non-empty list of keys; comes out normalised as a list. */
  const keys = z.unknown().transform((value, ctx): string[] => {
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || list.length === 0 || list.some((v) => typeof v !== 'string')) {
      ctx.addIssue({ code: 'custom', message: 'expected a key ("ctrl+o") or a list of keys (["alt+enter", "ctrl+j"])' });
      return z.NEVER;
    }
    const out: string[] = [];
    list.forEach((spec: string, i) => {
      try {
        out.push(normalizeKeySpec(spec));
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e), path: Array.isArray(value) ? [i] : [] });
      }
    });
    return out;
  });
  return z.strictObject(Object.fromEntries(KEYMAP_ACTIONS.map((a) => [a, keys.optional()])) as Record<KeymapAction, z.ZodOptional<typeof keys>>);
});
