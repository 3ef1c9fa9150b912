/** Help text to a tool spec. */
import { parseArgument, parseCommand, parseOption, termTokens } from './help-entries.ts';
import { entriesOf, splitHelp, type HelpLayout, type Section } from './help-sections.ts';
import { inferType } from './help-types.ts';
import { buildSchema } from './schema.ts';
import {
  PERMISSION_LEVELS,
  toolName,
  type ArgumentSpec,
  type CommandRef,
  type OptionSpec,
  type ParseError,
  type PermissionLevel,
  type ToolSpecFromHelp,
} from './spec.ts';
import { escapeRegExp } from '../../util/index.ts';

/**
 * `--help` text → a tool spec. Pass the `-h` output too when the program has
 * one: clap's `-h` is a summary and `--help` the long form, and each may say
 * something the other leaves out, so both are parsed and merged.
 */
export function parseHelp(helpText: string, shortHelpText?: string): ToolSpecFromHelp | ParseError {
  const long = parseOne(helpText);
  if (shortHelpText === undefined || shortHelpText.trim() === '' || shortHelpText === helpText) return long;
  const short = parseOne(shortHelpText);
  if (short.type === 'parse_error') return long;
  if (long.type === 'parse_error') return short;
  return merge(long, short);
}

const NOT_HELP: ParseError = {
  type: 'parse_error',
  message:
    'this does not look like --help output: it has no "Usage:", "Options:", "Arguments:" or "Commands:" section',
};

function parseOne(text: string): ToolSpecFromHelp | ParseError {
  const layout = splitHelp(text);
  const of = (kind: Section['kind']): Section[] => layout.sections.filter((s) => s.kind === kind);
  if (!layout.sections.some((s) => ['usage', 'arguments', 'options', 'commands'].includes(s.kind))) return NOT_HELP;
  const usage = of('usage')
    .flatMap((s) => [s.inline, ...s.lines])
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('\n');
  const program = layout.firstLine?.name ?? programFromUsage(usage);
  if (!program) return { type: 'parse_error', message: 'cannot tell the program name: no "name version" first line and no Usage: line' };
  const permission = permissionOf(of('permission'));
  if (permission === null) {
    return { type: 'parse_error', message: `PermissionLevel must be one of ${PERMISSION_LEVELS.join(', ')}` };
  }
  const options = of('options')
    .flatMap(entriesOf)
    .map(parseOption)
    .filter((o): o is OptionSpec => o !== undefined && !isMeta(o));
  let args = of('arguments')
    .flatMap(entriesOf)
    .map(parseArgument)
    .filter((a): a is ArgumentSpec => a !== undefined);
  if (of('arguments').length === 0) args = argumentsFromUsage(usage);
  refineFromUsage(options, args, usage);
  uniqueProperties(options, args);
  const commands = of('commands')
    .flatMap(entriesOf)
    .map(parseCommand)
    .filter((c): c is CommandRef => c !== undefined && !['help', 'completion'].includes(c.name));
  const spec: ToolSpecFromHelp = {
    type: 'tool_spec',
    name: toolName([program]),
    program,
    summary: layout.paragraphs[0]?.replace(/\s*\n\s*/g, ' ') ?? '',
    description: describe(layout),
    keywords: keywordsOf(of('keywords')),
    options,
    arguments: args,
    commands,
    argvPrefix: [],
    inputSchema: buildSchema(options, args),
  };
  if (layout.firstLine) spec.version = layout.firstLine.version;
  if (usage !== '') spec.usage = usage;
  if (permission !== undefined) spec.permissionLevel = permission;
  return spec;
}

function describe(layout: HelpLayout): string {
  return layout.paragraphs.join('\n\n').trim();
}

/** -h/--help/-V/--version are for people, not for the model. */
function isMeta(o: OptionSpec): boolean {
  if (o.long === 'help' || o.long === 'version') return true;
  if (o.long) return false;
  return o.short === 'h' || o.short === '?' || (o.short === 'V' && /version/i.test(o.description));
}

function permissionOf(sections: Section[]): PermissionLevel | undefined | null {
  const raw = sections.map((s) => [s.inline, ...s.lines].join(' ').trim()).find((v) => v !== '');
  if (raw === undefined) return undefined;
  const level = PERMISSION_LEVELS.find((p) => p === raw.toLowerCase());
  return level ?? null;
}

function keywordsOf(sections: Section[]): string[] {
  const all = sections.flatMap((s) => [s.inline, ...s.lines].join(',').split(','));
  return [...new Set(all.map((k) => k.trim()).filter((k) => k !== ''))];
}

/** `Usage: base64 encode [OPTIONS] [TEXT]` → `base64 encode`. */
function programFromUsage(usage: string): string | undefined {
  const first = usage.split('\n')[0] ?? '';
  const words: string[] = [];
  for (const tok of first.split(/\s+/)) {
    if (tok === '' || /^[[<{(-]/.test(tok) || /^[A-Z][A-Z0-9_]+$/.test(tok)) break;
    words.push(tok.replace(/^.*\//, '')); // argv[0] may be a path
  }
  return words.length > 0 ? words.join(' ') : undefined;
}

const PLACEHOLDER_SKIP = /^(OPTIONS|FLAGS|COMMAND|SUBCOMMAND|ARGS|OPTION|FLAG|options|flags|command|subcommand)$/;

/** With no Arguments: section, the usage line is the only record of positionals. */
function argumentsFromUsage(usage: string): ArgumentSpec[] {
  const out: ArgumentSpec[] = [];
  const tokens = termTokens((usage.split('\n')[0] ?? '').replace(/^\S+/, ''));
  for (const [i, tok] of tokens.entries()) {
    const m = /^(<([^>]+)>|\[([A-Za-z][\w-]*)\])(\.\.\.)?$/.exec(tok);
    const name = m?.[2] ?? m?.[3];
    if (!m || !name || PLACEHOLDER_SKIP.test(name) || name.startsWith('-')) continue;
    // `--file <PATH>` is an option's value, not a positional.
    if (i > 0 && /^-/.test(tokens[i - 1] ?? '')) continue;
    out.push({
      kind: 'argument',
      property: name.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
      valueName: name,
      type: inferType({ valueName: name }),
      multiple: m[4] !== undefined || tokens[i + 1] === '...',
      required: m[2] !== undefined,
      description: '',
    });
  }
  return out;
}

/** Bracket depth of each `--long` in the usage: depth 0 means the option is required. */
function refineFromUsage(options: OptionSpec[], args: ArgumentSpec[], usage: string): void {
  // argparse wraps long usage lines; the continuation belongs to the same usage.
  const first = usage.replace(/\n/g, ' ');
  let depth = 0;
  const required = new Set<string>();
  for (const m of first.matchAll(/[[\]]|(?<![\w-])--?[A-Za-z0-9][\w-]*/g)) {
    const t = m[0];
    if (t === '[') depth++;
    else if (t === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0) required.add(t.replace(/^-+/, ''));
  }
  for (const o of options) if ((o.long && required.has(o.long)) || (!o.long && o.short && required.has(o.short))) o.required = true;
  // argparse shows bare positional names; brackets or "..." in the usage say optional or variadic.
  for (const a of args) {
    const name = escapeRegExp(a.valueName);
    if (new RegExp(`\\[${name}(\\s*\\.\\.\\.)?\\]`).test(first)) a.required = false;
    if (new RegExp(`${name}\\]?\\s*\\.\\.\\.|\\[${name} \\.\\.\\.\\]`).test(first)) a.multiple = true;
  }
}

/** `--file` and `<FILE>` would both be "file": the positional yields. */
function uniqueProperties(options: OptionSpec[], args: ArgumentSpec[]): void {
  const seen = new Set<string>();
  for (const spec of [...options, ...args]) {
    let name = spec.property || (spec.kind === 'argument' ? 'arg' : 'option');
    if (seen.has(name)) name = `${name}_${spec.kind === 'argument' ? 'arg' : 'opt'}`;
    for (let n = 2; seen.has(name); n++) name = `${spec.property}_${n}`;
    spec.property = name;
    seen.add(name);
  }
}

function longer(a: string, b: string): string {
  return b.length > a.length ? b : a;
}

/** Fills what the long help lacks from the short one (and keeps the longer texts). */
function merge(long: ToolSpecFromHelp, short: ToolSpecFromHelp): ToolSpecFromHelp {
  const options = long.options.map((o) => ({ ...o }));
  for (const s of short.options) {
    const match = options.find((o) => (o.long !== undefined && o.long === s.long) || (!o.long && !s.long && o.short === s.short));
    if (!match) {
      options.push({ ...s });
      continue;
    }
    match.description = longer(match.description, s.description);
    match.short ??= s.short;
    if (match.default === undefined && s.default !== undefined) match.default = s.default;
    if (match.enum === undefined && s.enum !== undefined) match.enum = s.enum;
    match.required ||= s.required;
  }
  const args = long.arguments.map((a) => ({ ...a }));
  for (const s of short.arguments) {
    const match = args.find((a) => a.valueName === s.valueName);
    if (!match) args.push({ ...s });
    else {
      match.description = longer(match.description, s.description);
      if (match.enum === undefined && s.enum !== undefined) match.enum = s.enum;
    }
  }
  const commands = [...long.commands];
  for (const c of short.commands) if (!commands.some((x) => x.name === c.name)) commands.push(c);
  const merged: ToolSpecFromHelp = {
    ...long,
    summary: long.summary || short.summary,
    description: longer(long.description, short.description),
    keywords: long.keywords.length > 0 ? long.keywords : short.keywords,
    options,
    arguments: args,
    commands,
    inputSchema: buildSchema(options, args),
  };
  const version = long.version ?? short.version;
  if (version !== undefined) merged.version = version;
  const permission = long.permissionLevel ?? short.permissionLevel;
  if (permission !== undefined) merged.permissionLevel = permission;
  const usage = long.usage ?? short.usage;
  if (usage !== undefined) merged.usage = usage;
  return merged;
}
