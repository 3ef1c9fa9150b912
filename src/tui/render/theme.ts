/**
 * Colours and glyphs in one place. Everything is rendered through chalk,
 * the same library Ink uses, so colour support (NO_COLOR, FORCE_COLOR, pipes)
 * is decided once and the same way for both.
 */
import { Chalk, type ChalkInstance } from 'chalk';

let current: ChalkInstance = new Chalk();

/** Tests and `--no-color` force a level; 0 = no colour. */
export function setColorLevel(level: 0 | 1 | 2 | 3): void {
  current = new Chalk({ level });
}

export function c(): ChalkInstance {
  return current;
}

export const GLYPH = {
  bullet: '●',
  user: '>',
  result: '⎿',
  thinking: '✻',
  todoDone: '☒',
  todoOpen: '☐',
  todoActive: '◐',
  warn: '⚠',
  error: '✗',
  ok: '✓',
  quote: '│',
  ellipsis: '…',
} as const;

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;
