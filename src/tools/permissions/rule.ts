/** Parses a permission rule in Claude Code's syntax. */
import { MoatError, escapeRegExp } from '../../util/index.ts';
import { parseCommandPattern, type CommandPattern } from './command-pattern.ts';
import { parsePathPattern, type PathPattern } from './path-pattern.ts';
import { canonicalRuleName } from './rule-names.ts';

/**
 * A permission rule, in Claude Code's syntax: `Tool` or `Tool(specifier)`.
 * `text` is the rule as written (trimmed), for messages.
 */
export type Rule = RuleShape & {
  /** Where the rule was written, for messages (`.claude/settings.json:4`, `--disallowedTools`); absent for a rule added in the session. */
  source?: string;
};

type RuleShape =
  /** `Bash`, `Read`, `TodoWrite`, `mcp__github`: every call of that tool (or MCP server). */
  | { type: 'tool'; text: string; ruleName: string }
  | { type: 'command'; text: string; ruleName: 'Bash'; pattern: CommandPattern }
  | { type: 'path'; text: string; ruleName: 'Read' | 'Edit'; pattern: PathPattern }
  /** `WebFetch(domain:example.com)`; `*.example.com` for subdomains, `*` for any host. */
  | { type: 'domain'; text: string; ruleName: 'WebFetch'; domain: string }
  /** Any other `Tool(x)` (Task(explore), Skill(name), a WASM tool): matched against the call's subject, `*` as a wildcard. */
  | { type: 'subject'; text: string; ruleName: string; regex: RegExp };

/** A malformed rule; the message is one line naming the rule and what is wrong. */
export class PermissionRuleError extends MoatError {
  readonly rule: string;
  constructor(rule: string, problem: string) {
    super('usage', `invalid permission rule "${rule}": ${problem}`);
    this.name = 'PermissionRuleError';
    this.rule = rule;
  }
}

const NAME = /^[A-Za-z0-9_.*-]+$/;

/**
 * Where the specifier's closing parenthesis is. Parentheses nest; `\(` and `\)`
 * are literal. Quotes are not interpreted, so `Bash(echo it's)` is fine.
 */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

function unescapeParens(spec: string): string {
  return spec.replace(/\\([()])/g, '$1');
}

export function globRegex(glob: string, flags: string): RegExp {
  const body = glob
    .split('*')
    .map((p) => escapeRegExp(p))
    .join('.*');
  return new RegExp(`^${body}$`, flags);
}

function parseDomain(text: string, spec: string): string {
  if (!spec.startsWith('domain:')) {
    throw new PermissionRuleError(text, 'WebFetch rules take the form WebFetch(domain:example.com)');
  }
  const domain = spec.slice('domain:'.length).trim().toLowerCase().replace(/\.$/, '');
  if (domain === '') throw new PermissionRuleError(text, 'the domain is empty');
  if (domain !== '*' && !/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d+)?$/.test(domain)) {
    throw new PermissionRuleError(text, `"${domain}" is not a host name (use example.com or *.example.com)`);
  }
  return domain;
}

/** Parse one rule. Throws PermissionRuleError with a one-line message when it is malformed. */
export function parseRule(input: string): Rule {
  const text = input.trim();
  if (text === '') throw new PermissionRuleError(input, 'the rule is empty');
  const open = text.indexOf('(');
  const rawName = (open < 0 ? text : text.slice(0, open)).trim();
  if (rawName === '') throw new PermissionRuleError(text, 'the tool name is missing before "("');
  if (open < 0 && text.includes(')')) throw new PermissionRuleError(text, 'unbalanced parentheses: missing "("');
  if (!NAME.test(rawName) || /^\*+$/.test(rawName)) {
    throw new PermissionRuleError(text, `"${rawName}" is not a tool name`);
  }
  if (open < 0) {
    return { type: 'tool', text, ruleName: canonicalRuleName(rawName) };
  }
  const close = closingParen(text, open);
  if (close < 0) throw new PermissionRuleError(text, 'unbalanced parentheses: missing ")"');
  if (close !== text.length - 1) {
    const rest = text.slice(close + 1);
    if (/^\)+$/.test(rest)) throw new PermissionRuleError(text, 'unbalanced parentheses: extra ")"');
    throw new PermissionRuleError(text, `unexpected text after ")": "${rest}"`);
  }
  const spec = unescapeParens(text.slice(open + 1, close)).trim();
  const ruleName = canonicalRuleName(rawName);
  if (spec === '') {
    throw new PermissionRuleError(text, `nothing between the parentheses; write ${rawName} alone to match every call`);
  }
  switch (ruleName) {
    case 'Bash': {
      const pattern = parseCommandPattern(spec);
      // `Bash(*)` is documented as the same as `Bash`.
      if (pattern.type === 'any') return { type: 'tool', text, ruleName };
      return { type: 'command', text, ruleName, pattern };
    }
    case 'Read':
    case 'Edit':
      return { type: 'path', text, ruleName, pattern: parsePathPattern(spec) };
    case 'WebFetch':
      return { type: 'domain', text, ruleName, domain: parseDomain(text, spec) };
    default:
      if (spec === '*') return { type: 'tool', text, ruleName };
      return { type: 'subject', text, ruleName, regex: globRegex(spec, 's') };
  }
}

/**
 * Split `--allowedTools`/`--disallowedTools` values into rule texts: each value
 * may hold several rules separated by commas or spaces, which never split
 * inside parentheses (`"Bash(git log:*) Read"`, `"Bash(npm run test:*),Edit"`).
 */
export function splitRuleList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = '';
    for (let i = 0; i < value.length; i++) {
      const c = value[i] ?? '';
      if (c === '\\' && depth > 0) {
        current += c + (value[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')' && depth > 0) depth--;
      if (depth === 0 && (c === ',' || /\s/.test(c))) {
        if (current.trim() !== '') out.push(current.trim());
        current = '';
        continue;
      }
      current += c;
    }
    if (current.trim() !== '') out.push(current.trim());
  }
  return out;
}

/** Parse `--allowedTools`-style values (each a comma- or space-separated list) into rules. */
export function parseRuleList(values: readonly string[]): Rule[] {
  return splitRuleList(values).map(parseRule);
}

/** Does `host` fall under a WebFetch domain rule? `example.com` is exact; `*.example.com` is any subdomain. */
export function domainMatches(domain: string, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (domain === '*') return true;
  if (domain.startsWith('*.')) return h.endsWith(domain.slice(1));
  return h === domain;
}
