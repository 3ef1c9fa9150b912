/** A bash command line, as parsed by tree-sitter-bash, read into the simple commands that permission rules match. */
import { parseShell, type SyntaxNode } from './bash-parser.ts';

/**
 * The reader serves both kinds of rule:
 * - allow rules may vouch for a line only when everything in it is on a short
 *   list of node kinds: simple commands whose words are plain words, quoted
 *   strings and plain `$NAME` references; `&&`, `||`, `;`, `&`, `|` and
 *   newlines between them; redirections (their targets are checked as writes);
 *   here-documents and here-strings whose text expands nothing but `$NAME`.
 *   Anything else — `$(…)`, loops, subshells, functions, `${x:-…}`, syntax
 *   errors, node kinds this file has never heard of — is listed in
 *   `unsupported`, and no allow rule matches the line.
 * - deny rules are checked against every simple command the parser finds,
 *   wherever it is (inside `$(…)`, loops, subshells, error-recovery nodes).
 */

export interface ShellWord {
  /** As written, quotes and escapes included. */
  raw: string;
  /** After quote removal, before any expansion: what the program would see for a plain word. */
  value: string;
  /** True when the shell would change the word at run time: `$…`, an unquoted glob or brace. */
  expands: boolean;
}

export interface Redirection {
  /** Explicit file descriptor (`2` in `2>x`), or null. */
  fd: string | null;
  /** The operator: `>`, `>>`, `>|`, `&>`, `&>>`, `>&`, `<`, `<&`, `<>`, `>&-`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The word after the operator (a here-document's delimiter); null when there is none (`>&-`). */
  target: ShellWord | null;
  /** What a here-document or here-string feeds to the command's standard input. */
  input?: string;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: ShellWord[];
  /** The command name and its arguments. */
  words: ShellWord[];
  redirections: Redirection[];
  /** Its standard input comes through a pipe. */
  piped: boolean;
  /** The pipe's writer, when that is a simple command (null for `(…) | sh`). */
  pipedFrom: SimpleCommand | null;
}

export interface CommandLine {
  /** Every simple command the parser found, at any depth, outer before inner. */
  commands: SimpleCommand[];
  /** What keeps allow rules from vouching for the line, worded for people; empty for a plain line. */
  unsupported: string[];
  /** Every redirection in the line, those of subshells and groups included. */
  redirections: Redirection[];
  /** The parser recovered from a syntax error; what it made of the line may not be what bash would. */
  syntaxError: boolean;
  /** Text the parser passed over without placing it in the tree (deny rules re-read it). */
  skipped: string[];
}

const SYNTAX_ERROR = 'a syntax error (an unclosed quote, bracket or here-document)';
const SKIPPED = 'text the parser could not place';

/** Node kinds outside the allow-list, as a person would name them. */
const CONSTRUCTS: Readonly<Record<string, string>> = {
  command_substitution: 'command substitution ($(…) or backticks)',
  process_substitution: 'process substitution (<(…) or >(…))',
  arithmetic_expansion: 'arithmetic expansion ($((…)))',
  expansion: 'a ${…} expansion with an operator',
  subshell: 'a subshell or ( … ) grouping',
  compound_statement: 'a { … } group',
  if_statement: 'an if statement',
  while_statement: 'a while or until loop',
  for_statement: 'a for loop',
  c_style_for_statement: 'a for loop',
  case_statement: 'a case statement',
  function_definition: 'a function definition',
  test_command: 'a [[ … ]] or (( … )) test',
  negated_command: 'a negated command (! …)',
  declaration_command: 'a declaration (export, declare, local, readonly, typeset)',
  unset_command: 'unset',
  array: 'an array',
  ERROR: SYNTAX_ERROR,
  MISSING: SYNTAX_ERROR,
};

function describe(type: string): string {
  return CONSTRUCTS[type] ?? `shell syntax that rules cannot approve (${type})`;
}

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** Kinds that carry a word's text; anything else in a word's place is unsupported. */
function isWordKind(type: string): boolean {
  return ['word', 'number', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation', 'simple_expansion', 'expansion', 'brace_expression', 'command_substitution', 'process_substitution', 'arithmetic_expansion'].includes(type);
}

function emptyCommand(piped: boolean, pipedFrom: SimpleCommand | null): SimpleCommand {
  return { assignments: [], words: [], redirections: [], piped, pipedFrom };
}

/** The walk over one tree; collects commands, redirections and what is outside the allow-list. */
class Reader {
  readonly commands: SimpleCommand[] = [];
  readonly unsupported = new Set<string>();
  readonly redirections: Redirection[] = [];

  constructor(
    private readonly line: string,
    /** Stretches the grammar dropped; the known case is taken out when it is met. */
    readonly skipped: { start: number; end: number }[],
  ) {}

  /** A statement: returns the simple command whose output a following pipe stage would read, if there is one. */
  statement(node: SyntaxNode, piped: boolean, pipedFrom: SimpleCommand | null): SimpleCommand | null {
    switch (node.type) {
      case 'program':
        for (const child of node.children) if (child.named) this.statement(child, false, null);
        return null;
      case 'list': {
        // The grammar nests `a && b` where bash would not: in `x | a && b` the pipe feeds a, the first
        // command, and the redirection of `a && b > f` belongs to b, the last.
        let last: SimpleCommand | null = null;
        let first = true;
        for (const child of node.children) {
          if (!child.named) continue;
          last = this.statement(child, first && piped, first ? pipedFrom : null);
          first = false;
        }
        return last;
      }
      case 'comment':
        return null;
      case 'command':
        return this.command(node, piped, pipedFrom);
      case 'variable_assignment':
      case 'variable_assignments': {
        const cmd = emptyCommand(piped, pipedFrom);
        this.commands.push(cmd);
        for (const a of node.type === 'variable_assignment' ? [node] : node.children.filter((c) => c.named)) {
          if (a.type === 'variable_assignment') cmd.assignments.push(this.assignment(a));
          else this.other(a);
        }
        return cmd;
      }
      case 'pipeline': {
        let previous: SimpleCommand | null = pipedFrom;
        let first = true;
        for (const child of node.children) {
          if (!child.named) continue;
          previous = this.statement(child, piped || !first, previous);
          first = false;
        }
        return previous;
      }
      case 'redirected_statement':
        return this.redirected(node, piped, pipedFrom);
      default:
        this.other(node);
        return null;
    }
  }

  /** A node outside the allow-list: noted, and searched for the commands and redirections inside it. */
  other(node: SyntaxNode): void {
    this.unsupported.add(describe(node.type));
    this.scan(node);
  }

  private scan(node: SyntaxNode): void {
    // Error recovery leaves runs of bare words; read them as a command too, for deny rules.
    let loose: ShellWord[] = [];
    const flush = (): void => {
      if (loose.length > 0) this.commands.push({ ...emptyCommand(false, null), words: loose });
      loose = [];
    };
    for (const child of node.children) {
      if (node.type === 'ERROR' && isWordKind(child.type)) {
        loose.push(this.word(child));
        continue;
      }
      flush();
      if (!child.named) continue;
      if (REDIRECT_TYPES.has(child.type)) this.redirect(child, emptyCommand(false, null));
      else if (isWordKind(child.type)) this.word(child);
      else if (child.type === 'variable_assignment') this.assignment(child);
      else if (['command', 'pipeline', 'list', 'redirected_statement', 'variable_assignments'].includes(child.type)) this.statement(child, false, null);
      else if (child.type in CONSTRUCTS) this.other(child);
      else this.scan(child);
    }
    flush();
  }

  private command(node: SyntaxNode, piped: boolean, pipedFrom: SimpleCommand | null): SimpleCommand {
    const cmd = emptyCommand(piped, pipedFrom);
    this.commands.push(cmd);
    const words: SyntaxNode[] = [];
    for (const child of node.children) {
      if (child.type === 'variable_assignment') cmd.assignments.push(this.assignment(child));
      else if (REDIRECT_TYPES.has(child.type)) this.redirect(child, cmd);
      else if (child.type === 'command_name') words.push(...child.children);
      else if (child.field === 'argument') words.push(child);
      else if (child.type !== 'comment') this.other(child);
    }
    cmd.words.unshift(...this.joinedWords(words));
    return cmd;
  }

  /**
   * Words as bash reads them. Bash removes a backslash-newline before it
   * splits words, so `r\⏎m x` is `rm x`; the grammar takes the pair for a
   * blank and makes two words of it. Words with nothing but such pairs between
   * them are one word here, or `Bash(rm:*)` would not see the `rm`.
   */
  private joinedWords(nodes: readonly SyntaxNode[]): ShellWord[] {
    const out: ShellWord[] = [];
    let previous: SyntaxNode | undefined;
    for (const node of nodes) {
      const word = this.word(node);
      const last = out.at(-1);
      if (last !== undefined && previous !== undefined && /^(?:\\\n)+$/.test(this.line.slice(previous.end, node.start))) {
        out[out.length - 1] = { raw: `${last.raw}${this.line.slice(previous.end, node.start)}${word.raw}`, value: last.value + word.value, expands: last.expands || word.expands };
      } else {
        out.push(word);
      }
      previous = node;
    }
    return out;
  }

  private redirected(node: SyntaxNode, piped: boolean, pipedFrom: SimpleCommand | null): SimpleCommand | null {
    const body = node.children.find((c) => c.field === 'body');
    let owner = body === undefined ? null : this.statement(body, piped, pipedFrom);
    if (owner === null && body === undefined) {
      owner = emptyCommand(piped, pipedFrom);
      this.commands.push(owner);
    }
    // `(…) > x`: the body is unsupported already; the write is still recorded for Edit deny rules.
    if (owner === null && body !== undefined && !(body.type in CONSTRUCTS)) this.unsupported.add(`a redirection of a whole ${body.type}`);
    for (const child of node.children) {
      if (child === body || child.type === 'comment') continue;
      if (REDIRECT_TYPES.has(child.type)) this.redirect(child, owner ?? emptyCommand(false, null));
      else if (child.named) this.other(child);
    }
    return owner;
  }

  private redirect(node: SyntaxNode, owner: SimpleCommand): void {
    const fdNode = node.children.find((c) => c.field === 'descriptor');
    const fd = fdNode?.text ?? null;
    const op = node.children.find((c) => !c.named && c.field === null)?.text ?? '';
    const r: Redirection = { fd, op, target: null };
    if (node.type === 'file_redirect') {
      const [first, ...rest] = this.joinedWords(node.children.filter((c) => c.field === 'destination'));
      if (first !== undefined) r.target = first;
      // The grammar lets a redirection swallow the words after its target; to bash they are arguments.
      owner.words.push(...rest);
      for (const c of node.children) if (c.named && c.field === null && c.type !== 'file_descriptor') this.other(c);
    } else if (node.type === 'herestring_redirect') {
      const target = node.children.find((c) => c.named && c.field !== 'descriptor');
      if (target !== undefined) {
        r.target = this.word(target);
        r.input = `${r.target.value}\n`;
      }
    } else {
      this.heredoc(node, owner, r);
    }
    owner.redirections.push(r);
    this.redirections.push(r);
  }

  /**
   * `cmd <<EOF … EOF`. The grammar puts the rest of the command's line inside
   * this node (`| sh`, `&& next`, more redirections): they are read here as the
   * statements they are.
   */
  private heredoc(node: SyntaxNode, owner: SimpleCommand, r: Redirection): void {
    // The grammar drops an argument `-` written just before `<<` (`git commit -F - <<'EOF'`); put it back.
    const dash = this.skipped.findIndex((g) => this.line.slice(g.start, g.end).trim() === '-' && this.line.slice(g.end, node.start).trim() === '');
    if (dash >= 0) {
      owner.words.push({ raw: '-', value: '-', expands: false });
      this.skipped.splice(dash, 1);
    }
    for (const child of node.children) {
      switch (child.type) {
        case 'heredoc_start':
          r.target = { raw: child.text, value: child.text.replace(/\\(.)|['"]/g, '$1'), expands: false };
          r.input = '';
          break;
        case 'heredoc_body': {
          const body = r.op === '<<-' ? child.text.replace(/^\t+/gm, '') : child.text;
          r.input = body;
          // An unquoted delimiter expands the body: `$(…)` in it runs.
          for (const part of child.children) if (part.named && part.type !== 'heredoc_content') this.word(part);
          break;
        }
        case 'pipeline': {
          let previous: SimpleCommand | null = owner;
          for (const stage of child.children) if (stage.named) previous = this.statement(stage, true, previous);
          break;
        }
        default:
          if (REDIRECT_TYPES.has(child.type)) this.redirect(child, owner);
          else if (child.field === 'right') this.statement(child, false, null);
          else if (child.named && child.type !== 'heredoc_end') this.other(child);
      }
    }
  }

  private assignment(node: SyntaxNode): ShellWord {
    const value = node.children.find((c) => c.field === 'value');
    const name = node.text.slice(0, node.text.length - (value?.text.length ?? 0));
    if (value === undefined) return { raw: node.text, value: name, expands: false };
    const w = this.word(value);
    return { raw: node.text, value: name + w.value, expands: w.expands };
  }

  /** A word: its text, its value after quote removal, and whatever it contains that runs or is not allowed. */
  word(node: SyntaxNode): ShellWord {
    const raw = node.text;
    switch (node.type) {
      case 'word':
      case 'number':
        return { raw, value: unescapeUnquoted(raw), expands: unquotedExpands(raw) };
      case 'raw_string':
        return { raw, value: raw.slice(1, -1), expands: false };
      case 'ansi_c_string':
        return { raw, value: decodeAnsiC(raw.slice(2, -1)), expands: false };
      case 'string':
      case 'translated_string': {
        let expands = false;
        for (const part of node.children) {
          if (!part.named || part.type === 'string_content') continue;
          expands = true;
          this.word(part);
        }
        const open = raw.indexOf('"');
        return { raw, value: unescapeDoubleQuoted(raw.slice(open + 1, raw.endsWith('"') ? -1 : undefined)), expands };
      }
      case 'concatenation': {
        const parts = node.children.map((c) => this.word(c));
        return { raw, value: parts.map((p) => p.value).join(''), expands: parts.some((p) => p.expands) };
      }
      case 'simple_expansion':
        return { raw, value: raw, expands: true };
      case 'expansion':
        // `${NAME}` is a plain reference; with an operator it may run code (`${x:-$(…)}`, `${x@P}`).
        if (!node.children.every((c) => ['${', '}', 'variable_name', 'special_variable_name'].includes(c.type))) this.other(node);
        return { raw, value: raw, expands: true };
      case 'brace_expression':
        return { raw, value: raw, expands: true };
      case 'command_substitution':
      case 'process_substitution':
        this.unsupported.add(describe(node.type));
        for (const child of node.children) if (child.named) this.statement(child, false, null);
        return { raw, value: raw, expands: true };
      default:
        this.other(node);
        return { raw, value: raw, expands: true };
    }
  }
}

/** Backslash escapes outside quotes: `\x` is `x`, a backslash-newline vanishes. */
function unescapeUnquoted(raw: string): string {
  return raw.replace(/\\(\n|.)/gs, (_, c: string) => (c === '\n' ? '' : c));
}

/** Inside double quotes a backslash escapes only `$`, `` ` ``, `"`, `\` and newline. */
function unescapeDoubleQuoted(inner: string): string {
  return inner.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

/** An unquoted, unescaped glob or brace character makes bash rewrite the word. */
function unquotedExpands(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? '';
    if (c === '\\') i++;
    else if ('*?[{$'.includes(c)) return true;
  }
  return false;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** Decode the backslash escapes of bash's `$'…'` quoting, so `$'\x72m'` reads as `rm` to deny rules. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (whole, esc: string) => {
    const kind = esc[0] ?? '';
    if (kind === 'x' || kind === 'u' || kind === 'U') {
      const code = Number.parseInt(esc.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
    if (kind === 'c') return String.fromCharCode((esc.charCodeAt(1) || 0) & 0x1f);
    return SIMPLE_ESCAPES[esc] ?? whole;
  });
}

/** Recently read lines: one decision reads the same line for deny, ask and allow rules and for suggestions. */
const recent = new Map<string, CommandLine>();
const RECENT_LIMIT = 16;

/** Read a command line. The result is shared between callers: do not change it. */
export function readCommandLine(line: string): CommandLine {
  const cached = recent.get(line);
  if (cached !== undefined) return cached;
  const { root, hasError, skipped } = parseShell(line);
  const reader = new Reader(line, [...skipped]);
  reader.statement(root, false, null);
  if (hasError) reader.unsupported.add(SYNTAX_ERROR);
  if (reader.skipped.length > 0) reader.unsupported.add(SKIPPED);
  const result: CommandLine = {
    commands: reader.commands,
    unsupported: [...reader.unsupported],
    redirections: reader.redirections,
    syntaxError: hasError || reader.skipped.length > 0,
    skipped: reader.skipped.map((g) => line.slice(g.start, g.end)),
  };
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value ?? '');
  recent.set(line, result);
  return result;
}
