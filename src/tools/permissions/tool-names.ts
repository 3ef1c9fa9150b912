/**
 * Which tools a rule's bare name covers: the part of rule matching that
 * choosing the tools to offer needs, apart from the matching engine.
 */
import { canonicalRuleName } from './rule-names.ts';
import { globRegex, type Rule } from './rule.ts';

/**
 * Does a bare rule name cover a call's rule name? Case-insensitive, aliases
 * applied; `*` is a wildcard (`mcp__github__*`), and `mcp__server` covers
 * every tool of that server, as in Claude Code.
 */
export function nameMatches(ruleName: string, name: string): boolean {
  const r = canonicalRuleName(ruleName).toLowerCase();
  const c = canonicalRuleName(name).toLowerCase();
  if (r === c) return true;
  if (r.includes('*')) return globRegex(r, 'is').test(c);
  return r.startsWith('mcp__') && c.startsWith(`${r}__`);
}

/**
 * A bare deny rule (`Bash`, `WebFetch`, `mcp__server`) refuses every call of
 * the tool: such a tool is not offered to the model at all (Claude Code's
 * `--disallowedTools Foo`).
 */
export function deniedOutright(toolName: string, deny: readonly Rule[]): boolean {
  return deny.some((rule) => rule.type === 'tool' && nameMatches(rule.ruleName, toolName));
}
