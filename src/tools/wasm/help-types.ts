/** Guesses a value's JSON type from help text. */
import type { ValueType } from './spec.ts';

/**
 * Guessing a value's JSON type from what help text shows: cobra prints the Go
 * type (`--count int`), clap and argparse a placeholder (`<DIGITS>`, `N`) and
 * maybe a default. Wrong guesses are costly in one direction only: calling a
 * string an integer rejects valid input, so anything unclear stays a string.
 */

/** Go types as pflag prints them. */
export const COBRA_TYPES = new Map<string, ValueType>([
  ['string', 'string'],
  ['strings', 'string'],
  ['stringArray', 'string'],
  ['stringSlice', 'string'],
  ['int', 'integer'],
  ['int8', 'integer'],
  ['int16', 'integer'],
  ['int32', 'integer'],
  ['int64', 'integer'],
  ['uint', 'integer'],
  ['uint8', 'integer'],
  ['uint16', 'integer'],
  ['uint32', 'integer'],
  ['uint64', 'integer'],
  ['ints', 'integer'],
  ['intSlice', 'integer'],
  ['count', 'integer'],
  ['float', 'number'],
  ['float32', 'number'],
  ['float64', 'number'],
  ['floats', 'number'],
  ['float64Slice', 'number'],
  ['bool', 'boolean'],
  ['bools', 'boolean'],
  ['boolSlice', 'boolean'],
  ['duration', 'string'],
]);

const INTEGER_NAMES = new Set([
  'N', 'NUM', 'COUNT', 'DIGITS', 'INT', 'INTEGER', 'LIMIT', 'DEPTH', 'PORT', 'LINES', 'WIDTH', 'HEIGHT', 'SIZE',
  'LEN', 'LENGTH', 'INDEX', 'IDX', 'JOBS', 'THREADS', 'WORKERS', 'RETRIES', 'SEED', 'PID', 'UID', 'GID', 'LEVEL',
  'MAX', 'MIN', 'OFFSET', 'COLS', 'COLUMNS', 'ROWS', 'BYTES', 'MS', 'MILLIS', 'SECS', 'SECONDS', 'MINUTES', 'HOURS',
  'DAYS', 'YEAR', 'STEPS', 'ITERATIONS', 'TIMES', 'PRECISION', 'INDENT', 'TOP', 'K',
]);
const INTEGER_SUFFIX = /_(COUNT|N|NUM|SIZE|LIMIT|MS|SECS|SECONDS|BYTES|LINES|PORT|DEPTH|INDEX|WIDTH|DIGITS)$/;
const NUMBER_NAMES = new Set([
  'FLOAT', 'NUMBER', 'RATIO', 'RATE', 'FACTOR', 'SCALE', 'THRESHOLD', 'TEMPERATURE', 'PERCENT', 'PERCENTAGE',
  'WEIGHT', 'PROBABILITY', 'FRACTION', 'DECIMAL', 'REAL', 'AMOUNT',
]);
const BOOLEAN_NAMES = new Set(['BOOL', 'BOOLEAN']);
/** Placeholders that name things, not quantities: a numeric default does not make them numbers. */
const STRING_NAMES = /^(PATH|FILE|DIR|NAME|TEXT|STRING|STR|URL|HOST|ID|PATTERN|REGEX|QUERY|EXPR|EXPRESSION|FORMAT|KEY|VALUE|TAG|VERSION)$/;

export interface TypeHints {
  valueName?: string;
  default?: string;
  enum?: string[];
  cobraType?: string;
}

export function inferType(h: TypeHints): ValueType {
  if (h.cobraType) return COBRA_TYPES.get(h.cobraType) ?? 'string';
  if (h.enum && h.enum.length > 0) {
    if (h.enum.every((v) => /^-?\d+$/.test(v))) return 'integer';
    if (h.enum.every((v) => v === 'true' || v === 'false')) return 'boolean';
    return 'string';
  }
  const name = (h.valueName ?? '').toUpperCase().replace(/-/g, '_');
  if (INTEGER_NAMES.has(name) || INTEGER_SUFFIX.test(name)) return 'integer';
  if (NUMBER_NAMES.has(name)) return 'number';
  if (BOOLEAN_NAMES.has(name)) return 'boolean';
  if (STRING_NAMES.test(name) || h.default === undefined) return 'string';
  if (/^-?\d+$/.test(h.default)) return 'integer';
  if (/^-?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?$/.test(h.default)) return 'number';
  if (h.default === 'true' || h.default === 'false') return 'boolean';
  return 'string';
}
