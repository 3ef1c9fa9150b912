/**
 * Tool lists in frontmatter come in three spellings, all in use: a YAML list,
 * Claude Code's comma-separated string (`Read, Grep, Bash(git diff:*)`) and
 * the Agent Skills spec's space-separated string (`Read Grep`). Separators
 * inside parentheses belong to a rule (`Bash(git log -n 5)`), not the list.
 */
export function splitToolList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  const flush = () => {
    const t = cur.trim();
    if (t) out.push(t);
    cur = '';
  };
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      flush();
      continue;
    }
    cur += ch;
  }
  flush();
  return out;
}

/** The key two spellings of one tool share: `TodoWrite`, `todo_write` and `todo-write` all give `todowrite`. */
function key(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Maps tool names as written in a definition (Claude Code's `Read`, `Bash(git
 * diff:*)`, or moat's `read`) onto the names of the tools actually available.
 * A rule's parenthesised part is dropped: it narrows permissions, not the
 * tool set. Names that match nothing come back in `unknown` for the caller to
 * report.
 */
export function resolveToolNames(requested: readonly string[], available: readonly string[]): { tools: string[]; unknown: string[] } {
  const byKey = new Map(available.map((n) => [key(n), n]));
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const raw of requested) {
    const bare = raw.replace(/\(.*$/s, '').trim();
    const found = byKey.get(key(bare));
    if (found === undefined) {
      if (!unknown.includes(raw)) unknown.push(raw);
    } else if (!tools.includes(found)) {
      tools.push(found);
    }
  }
  return { tools, unknown };
}
