/** Parses one entry of a help text section. */
import { splitTerm, type Entry } from './help-sections.ts';
import { inferType, COBRA_TYPES } from './help-types.ts';
import { snakeCase, type ArgumentSpec, type CommandRef, type OptionSpec } from './spec.ts';

/**
 * One entry of an Options/Arguments/Commands section → its spec. The help
 * text's annotations (`[default: 10]`, `[possible values: a, b]`, cobra's
 * `(default 10)`, clap's long "Possible values:" list) become structured
 * fields; what remains is the description.
 */

interface Annotated {
  description: string;
  default?: string;
  enum?: string[];
  required: boolean;
}

function splitList(s: string): string[] {
  return s
    .split(',')
    .map((v) => v.trim().replace(/^["']|["']$/g, ''))
    .filter((v) => v !== '');
}

/** Pulls annotations out of an entry's help text. */
export function annotate(helpLines: string[]): Annotated {
  let text = helpLines.join('\n');
  const out: Annotated = { description: '', required: false };
  text = text.replace(/\[default: ([^\]]*)\]/g, (_, d: string) => {
    out.default = d.trim().replace(/^"(.*)"$/, '$1');
    return '';
  });
  text = text.replace(/\[possible values: ([^\]]*)\]/g, (_, v: string) => {
    out.enum = splitList(v);
    return '';
  });
  // cobra: (default 10), (default "x"); argparse with ArgumentDefaultsHelpFormatter: (default: 10)
  // An unquoted default is one token: "(default: alongside the input)" is prose, not a value.
  text = text.replace(/\(default:? ("[^"]*"|[^)\s]+)\)/g, (_, d: string) => {
    const v = d.trim().replace(/^"(.*)"$/, '$1');
    if (v !== '' && v !== '[]' && v !== 'None') out.default = v;
    return '';
  });
  text = text.replace(/\[(env|aliases|short aliases|alias): [^\]]*\]/g, '');
  text = text.replace(/\[required\]|\(required\)/gi, () => {
    out.required = true;
    return '';
  });
  // clap's long layout lists values one per line: "Possible values:\n- radians: …".
  const listed = /Possible values:\n((?:\s*- [^\n]+\n?)+)/.exec(text);
  if (listed?.[1] && out.enum === undefined) {
    out.enum = listed[1]
      .split('\n')
      .map((l) => /^\s*- ([^:\s]+)/.exec(l)?.[1])
      .filter((v): v is string => v !== undefined);
  }
  out.description = text
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return out;
}

/** Splits at spaces, commas and `=`, but not inside `<…>`, `[…]` or `{…}`. */
export function termTokens(term: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const c of term) {
    if (c === '<' || c === '[' || c === '{') depth++;
    if (c === '>' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === ' ' || c === ',' || c === '=')) {
      if (cur !== '') out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  if (cur !== '') out.push(cur);
  return out;
}

const VALUE_TOKEN = /^(<[^>]+>|\[<[^>]+>\]|\[[A-Z][A-Z0-9_-]*\]|[A-Z][A-Z0-9_-]*|\{[^}]*\})(\.\.\.)?$/;

/** `-p, --precision <DIGITS>`, `-p DIGITS, --precision DIGITS`, `--mode string`, `--x=<V>`, `--[no-]color`. */
export function parseOption(entry: Entry): OptionSpec | undefined {
  const { term, help } = splitTerm(entry.head);
  let long: string | undefined;
  let short: string | undefined;
  let valueName: string | undefined;
  let multiple = false;
  let choices: string[] | undefined;
  let cobraType: string | undefined;
  const extraHelp: string[] = [];
  const tokens = termTokens(term);
  for (const [i, tok] of tokens.entries()) {
    const flag = /^(--?)(\[no-\])?([\p{L}\p{N}?][\p{L}\p{N}_.-]*)$/u.exec(tok);
    if (flag?.[1] && flag[3]) {
      if (flag[1] === '--') long ??= flag[3];
      else if (flag[3].length === 1) short ??= flag[3];
      else long ??= flag[3]; // -long (Go's flag package uses a single dash)
      continue;
    }
    if (tok === '...') {
      multiple = true;
      continue;
    }
    const v = VALUE_TOKEN.exec(tok);
    // argparse repeats the placeholder per spelling: `-W WIDTH, --width WIDTH`.
    if (v?.[1] && valueName) continue;
    if (v?.[1]) {
      const raw = v[1];
      if (raw.startsWith('{')) {
        choices = splitList(raw.slice(1, -1));
        valueName = (long ?? short ?? 'value').toUpperCase();
      } else {
        valueName = raw.replace(/[<>[\]]/g, '');
      }
      if (v[2]) multiple = true;
      continue;
    }
    if (!valueName && !cobraType && (long || short) && COBRA_TYPES.has(tok)) {
      cobraType = tok;
      valueName = tok;
      continue;
    }
    // Anything else is help text that was separated by a single space.
    extraHelp.push(tokens.slice(i).join(' '));
    break;
  }
  if (!long && !short) return undefined;
  const a = annotate([[...extraHelp, help].filter((s) => s !== '').join(' '), ...entry.more]);
  const enumValues = choices ?? a.enum;
  if (cobraType && /^(strings|stringArray|stringSlice|ints|intSlice|floats|float64Slice|bools|boolSlice)$/.test(cobraType)) multiple = true;
  const isFlag = valueName === undefined || cobraType === 'bool';
  const spec: OptionSpec = {
    kind: 'option',
    property: snakeCase(long ?? short ?? ''),
    type: isFlag ? 'boolean' : inferType({ valueName, default: a.default, enum: enumValues, cobraType }),
    multiple: isFlag ? false : multiple,
    required: a.required,
    description: a.description,
  };
  if (long) spec.long = long;
  if (short) spec.short = short;
  if (!isFlag && valueName) spec.valueName = valueName;
  if (a.default !== undefined && !(isFlag && a.default === 'false')) spec.default = a.default;
  if (enumValues && enumValues.length > 0 && !isFlag) spec.enum = enumValues;
  return spec;
}

/** `<EXPRESSION>`, `[TEXT]`, `<FILE>...`, argparse's bare `name` or `{a,b}`. */
export function parseArgument(entry: Entry): ArgumentSpec | undefined {
  const { term, help } = splitTerm(entry.head);
  const m = /^(<[^>]+>|\[[^\]]+\]|\{[^}]*\}|\p{L}[\p{L}\p{N}_-]*)(\.\.\.)?$/u.exec(term.trim());
  if (!m?.[1]) return undefined;
  const raw = m[1];
  const a = annotate([help, ...entry.more]);
  let valueName = raw.replace(/^[<[]|[>\]]$/g, '').replace(/\.\.\.$/, '');
  let enumValues = a.enum;
  if (raw.startsWith('{')) {
    enumValues = splitList(raw.slice(1, -1));
    valueName = 'choice';
  }
  const spec: ArgumentSpec = {
    kind: 'argument',
    property: snakeCase(valueName),
    valueName,
    type: inferType({ valueName, default: a.default, enum: enumValues }),
    multiple: m[2] !== undefined || /\.\.\.$/.test(raw.slice(1, -1)),
    // `[NAME]` is optional; `<NAME>` and bare names are required unless marked otherwise.
    required: !raw.startsWith('[') && a.default === undefined,
    description: a.description,
  };
  if (a.default !== undefined) spec.default = a.default;
  if (enumValues && enumValues.length > 0) spec.enum = enumValues;
  return spec;
}

export function parseCommand(entry: Entry): CommandRef | undefined {
  const { term, help } = splitTerm(entry.head);
  // cobra shows aliases as "remove, rm"; the first name is the command.
  const name = term.split(/[\s,]+/)[0] ?? '';
  if (!/^[A-Za-z0-9][\w-]*$/.test(name)) return undefined;
  return { name, description: [help, ...entry.more].filter((s) => s !== '').join(' ').trim() };
}
