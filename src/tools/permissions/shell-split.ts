/**
 * A small, conservative reader for bash command lines: enough of the shell
 * grammar to see where one simple command ends and the next begins, so a rule
 * for `git status` cannot be stretched over `git status && rm -rf x`.
 *
 * It does not execute or expand anything. Whatever it cannot read with
 * certainty (command substitution, subshells, unbalanced quotes, …) is reported
 * as a hazard: the caller then refuses to let an allow rule vouch for the line,
 * while deny rules are still checked against every part it could recognise.
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
  /** The operator: `>`, `>>`, `>|`, `&>`, `&>>`, `>&`, `<`, `<&`, `<>`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The word after the operator; null only for a syntax error (operator at the end). */
  target: ShellWord | null;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: ShellWord[];
  /** The command name and its arguments. */
  words: ShellWord[];
  redirections: Redirection[];
}

export type ShellHazard =
  | 'command_substitution'
  | 'process_substitution'
  | 'unbalanced_quotes'
  | 'unbalanced_parentheses'
  | 'grouping'
  | 'heredoc_expansion'
  | 'unterminated_heredoc'
  | 'missing_redirect_target';

export interface SplitCommand {
  commands: SimpleCommand[];
  /** Why no allow rule may vouch for this line; empty for a plain line. */
  hazards: ShellHazard[];
  /** Command lines found inside `$(…)`, backticks, `<(…)`, `>(…)`: deny rules are checked on them too. */
  nested: string[];
}

/** One line per hazard, for permission reasons and denial hints. */
export function describeHazard(h: ShellHazard): string {
  switch (h) {
    case 'command_substitution':
      return 'command substitution ($(…) or backticks)';
    case 'process_substitution':
      return 'process substitution (<(…) or >(…))';
    case 'unbalanced_quotes':
      return 'unbalanced quotes';
    case 'unbalanced_parentheses':
      return 'unbalanced parentheses';
    case 'grouping':
      return 'a subshell or ( … ) grouping';
    case 'heredoc_expansion':
      return 'a here-document whose body is expanded';
    case 'unterminated_heredoc':
      return 'an unterminated here-document';
    case 'missing_redirect_target':
      return 'a redirection without a target';
  }
}

const SEPARATORS = ['&&', '||', '|&', ';;&', ';;', ';&', '|', '&', ';'];
const REDIRECTS = ['&>>', '<<<', '<<-', '&>', '>>', '>|', '>&', '<&', '<>', '<<', '>', '<'];
/** Longest first, so `&&` wins over `&` and `>>` over `>`. */
const OPERATORS = [...SEPARATORS, ...REDIRECTS].sort((a, b) => b.length - a.length);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/**
 * Index of the `close` that ends a construct opened just before `from`,
 * honouring quotes, escapes and nesting; -1 when it never closes.
 */
function findClosing(s: string, from: number, open: string, close: string): number {
  let depth = 1;
  let i = from;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return -1;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      const end = findDoubleQuoteEnd(s, i + 1);
      if (end < 0) return -1;
      i = end + 1;
      continue;
    }
    if (c === '`') {
      const end = findBacktickEnd(s, i + 1);
      if (end < 0) return -1;
      i = end + 1;
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
    i++;
  }
  return -1;
}

function findBacktickEnd(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '`') return i;
  }
  return -1;
}

function findDoubleQuoteEnd(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '"') return i;
    else if (c === '$' && s[i + 1] === '(') {
      const end = findClosing(s, i + 2, '(', ')');
      if (end < 0) return -1;
      i = end;
    } else if (c === '`') {
      const end = findBacktickEnd(s, i + 1);
      if (end < 0) return -1;
      i = end;
    }
  }
  return -1;
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

/** Break a command line into simple commands, with what stops rules from vouching for it. */
export function splitCommand(line: string): SplitCommand {
  const s = line;
  const commands: SimpleCommand[] = [];
  const hazards = new Set<ShellHazard>();
  const nested: string[] = [];

  let cmd: SimpleCommand = { assignments: [], words: [], redirections: [] };
  let raw = '';
  let value = '';
  let expands = false;
  let started = false;
  let pendingRedirect: Omit<Redirection, 'target'> | null = null;
  let heredocs: PendingHeredoc[] = [];

  const endWord = (): void => {
    if (!started) return;
    const word: ShellWord = { raw, value, expands };
    if (pendingRedirect) {
      cmd.redirections.push({ ...pendingRedirect, target: word });
      if (pendingRedirect.op === '<<' || pendingRedirect.op === '<<-') {
        // A quoted delimiter turns expansion of the body off.
        heredocs.push({ delimiter: value, stripTabs: pendingRedirect.op === '<<-', expands: raw === value });
      }
      pendingRedirect = null;
    } else if (cmd.words.length === 0 && ASSIGNMENT.test(raw)) {
      cmd.assignments.push(word);
    } else {
      cmd.words.push(word);
    }
    raw = '';
    value = '';
    expands = false;
    started = false;
  };

  const endCommand = (): void => {
    endWord();
    if (pendingRedirect) {
      hazards.add('missing_redirect_target');
      cmd.redirections.push({ ...pendingRedirect, target: null });
      pendingRedirect = null;
    }
    if (cmd.words.length + cmd.assignments.length + cmd.redirections.length > 0) commands.push(cmd);
    cmd = { assignments: [], words: [], redirections: [] };
  };

  /** Consume here-document bodies that start after the newline at `i`; returns the index to go on from. */
  const skipHeredocBodies = (from: number): number => {
    let i = from;
    for (const doc of heredocs) {
      let found = false;
      while (i < s.length) {
        const nl = s.indexOf('\n', i);
        const lineEnd = nl < 0 ? s.length : nl;
        const bodyLine = s.slice(i, lineEnd);
        i = nl < 0 ? s.length : nl + 1;
        if ((doc.stripTabs ? bodyLine.replace(/^\t+/, '') : bodyLine) === doc.delimiter) {
          found = true;
          break;
        }
        if (doc.expands && (bodyLine.includes('$(') || bodyLine.includes('`'))) {
          hazards.add('heredoc_expansion');
          nested.push(...substitutionsIn(bodyLine));
        }
      }
      if (!found) hazards.add('unterminated_heredoc');
    }
    heredocs = [];
    return i;
  };

  /** `$(…)` or backticks starting at `i` (inside or outside double quotes); returns the index after it. */
  const substitution = (i: number): number => {
    started = true;
    expands = true;
    if (s[i] === '`') {
      const end = findBacktickEnd(s, i + 1);
      hazards.add('command_substitution');
      if (end < 0) {
        hazards.add('unbalanced_quotes');
        nested.push(s.slice(i + 1));
        raw += s.slice(i);
        value += s.slice(i);
        return s.length;
      }
      nested.push(s.slice(i + 1, end).replace(/\\`/g, '`'));
      raw += s.slice(i, end + 1);
      value += s.slice(i, end + 1);
      return end + 1;
    }
    // `$(` here; `$((` arithmetic is treated the same way: conservative, and it may nest `$(…)` itself.
    const end = findClosing(s, i + 2, '(', ')');
    hazards.add('command_substitution');
    if (end < 0) {
      hazards.add('unbalanced_parentheses');
      nested.push(s.slice(i + 2));
      raw += s.slice(i);
      value += s.slice(i);
      return s.length;
    }
    nested.push(s.slice(i + 2, end));
    raw += s.slice(i, end + 1);
    value += s.slice(i, end + 1);
    return end + 1;
  };

  let i = 0;
  while (i < s.length) {
    const c = s[i] ?? '';
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
      continue;
    }
    if (c === '\n') {
      endCommand();
      i = heredocs.length > 0 ? skipHeredocBodies(i + 1) : i + 1;
      continue;
    }
    if (c === '#' && !started) {
      const nl = s.indexOf('\n', i);
      i = nl < 0 ? s.length : nl;
      continue;
    }
    if (c === '\\') {
      if (s[i + 1] === '\n') {
        i += 2; // line continuation
        continue;
      }
      started = true;
      const next = s[i + 1] ?? '';
      raw += c + next;
      value += next;
      i += 2;
      continue;
    }
    if (c === "'" || (c === '$' && s[i + 1] === "'")) {
      // Single quotes, or ANSI-C `$'…'` (decoded, so `$'\x72m'` reads as `rm` to deny rules).
      const open = c === '$' ? i + 1 : i;
      let end = -1;
      for (let j = open + 1; j < s.length; j++) {
        if (c === '$' && s[j] === '\\') j++;
        else if (s[j] === "'") {
          end = j;
          break;
        }
      }
      started = true;
      if (end < 0) {
        hazards.add('unbalanced_quotes');
        raw += s.slice(i);
        value += s.slice(open + 1);
        i = s.length;
        continue;
      }
      raw += s.slice(i, end + 1);
      value += c === '$' ? decodeAnsiC(s.slice(open + 1, end)) : s.slice(open + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      started = true;
      raw += c;
      let j = i + 1;
      let closed = false;
      while (j < s.length) {
        const d = s[j] ?? '';
        if (d === '"') {
          raw += d;
          closed = true;
          j++;
          break;
        }
        if (d === '\\') {
          const next = s[j + 1] ?? '';
          raw += d + next;
          if (next === '\n') {
            // continuation: nothing reaches the word
          } else if ('"\\$`'.includes(next)) value += next;
          else value += d + next;
          j += 2;
          continue;
        }
        if ((d === '$' && s[j + 1] === '(') || d === '`') {
          j = substitution(j);
          continue;
        }
        if (d === '$') expands = true;
        raw += d;
        value += d;
        j++;
      }
      if (!closed) hazards.add('unbalanced_quotes');
      i = j;
      continue;
    }
    if ((c === '$' && s[i + 1] === '(') || c === '`') {
      i = substitution(i);
      continue;
    }
    if (c === '$' && s[i + 1] === '{') {
      const end = findClosing(s, i + 2, '{', '}');
      started = true;
      expands = true;
      if (end < 0) {
        hazards.add('unbalanced_quotes');
        raw += s.slice(i);
        value += s.slice(i);
        i = s.length;
        continue;
      }
      const inner = s.slice(i + 2, end);
      if (inner.includes('$(') || inner.includes('`')) {
        hazards.add('command_substitution');
        nested.push(...substitutionsIn(inner));
      }
      raw += s.slice(i, end + 1);
      value += s.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if ((c === '<' || c === '>') && s[i + 1] === '(') {
      const end = findClosing(s, i + 2, '(', ')');
      hazards.add('process_substitution');
      started = true;
      expands = true;
      if (end < 0) {
        hazards.add('unbalanced_parentheses');
        nested.push(s.slice(i + 2));
        raw += s.slice(i);
        value += s.slice(i);
        i = s.length;
        continue;
      }
      nested.push(s.slice(i + 2, end));
      raw += s.slice(i, end + 1);
      value += s.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (c === '(' || c === ')') {
      hazards.add('grouping');
      endCommand();
      i++;
      continue;
    }
    const op = OPERATORS.find((o) => s.startsWith(o, i));
    if (op !== undefined) {
      if (REDIRECTS.includes(op)) {
        // `2>x`: a word of digits glued to the operator is its file descriptor, not an argument.
        let fd: string | null = null;
        if (started && /^\d+$/.test(raw) && raw === value) {
          fd = raw;
          raw = '';
          value = '';
          started = false;
        } else {
          endWord();
        }
        if (pendingRedirect) hazards.add('missing_redirect_target');
        pendingRedirect = { fd, op };
      } else {
        endCommand();
      }
      i += op.length;
      continue;
    }
    started = true;
    if ('*?[{'.includes(c) || (c === '$' && /[A-Za-z_0-9@*#?$!-]/.test(s[i + 1] ?? ''))) expands = true;
    raw += c;
    value += c;
    i++;
  }
  endCommand();
  if (heredocs.length > 0) skipHeredocBodies(s.length);
  return { commands, hazards: [...hazards], nested };
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** Decode the backslash escapes of bash's `$'…'` quoting. */
function decodeAnsiC(body: string): string {
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

/** The command lines inside every `$(…)` and backtick pair of `text` (for deny checks of here-doc bodies). */
function substitutionsIn(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '(') {
      const end = findClosing(text, i + 2, '(', ')');
      found.push(text.slice(i + 2, end < 0 ? text.length : end));
      if (end < 0) break;
      i = end;
    } else if (text[i] === '`') {
      const end = findBacktickEnd(text, i + 1);
      found.push(text.slice(i + 1, end < 0 ? text.length : end));
      if (end < 0) break;
      i = end;
    }
  }
  return found;
}
