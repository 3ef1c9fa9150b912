/**
 * Completion as you type: `/com` offers slash commands, `@sr/ap` offers files
 * (fuzzy, from the queries' .gitignore-aware listing), `/model gp` offers
 * models across providers.
 */
export interface Completion {
  /** Where the completed token starts and ends in the input. */
  start: number;
  end: number;
  kind: 'command' | 'file' | 'model';
  options: { value: string; label: string; detail?: string }[];
}

export interface CommandSpec {
  name: string;
  description: string;
  args?: string;
  /** A skill (SKILL.md), not a built-in command. */
  skill?: boolean;
  /** An MCP server's prompt (`/mcp__server__prompt`). */
  mcpPrompt?: boolean;
}

/** Fuzzy score of `query` in `target` (higher is better), or -1 when the letters are not all there in order. */
export function fuzzyScore(query: string, target: string): number {
  if (!query) return 0;
  const q = query.toLowerCase();
  const t = target.toLowerCase();
  let score = 0;
  let ti = 0;
  let prev = -2;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return -1;
    const atSegment = found === 0 || '/._- '.includes(t[found - 1] ?? '');
    score += 1 + (found === prev + 1 ? 3 : 0) + (atSegment ? 2 : 0);
    prev = found;
    ti = found + 1;
  }
  const base = t.slice(t.lastIndexOf('/') + 1);
  if (base.includes(q)) score += 5;
  return score * 100 - target.length;
}

export function completeCommand(value: string, cursor: number, commands: CommandSpec[]): Completion | undefined {
  const m = /^\/(\S*)$/.exec(value.slice(0, cursor));
  if (!m || value.slice(cursor).trim() !== '') return undefined;
  const typed = m[1] ?? '';
  const options = commands
    .filter((c) => c.name.startsWith(typed))
    .map((c) => ({ value: `/${c.name}`, label: `/${c.name}${c.args ? ` ${c.args}` : ''}`, detail: c.description }));
  if (options.length === 0) return undefined;
  if (options.length === 1 && options[0]?.value === `/${typed}`) return undefined;
  return { start: 0, end: cursor, kind: 'command', options };
}

export function completeFile(value: string, cursor: number, files: readonly string[], limit = 8): Completion | undefined {
  const before = value.slice(0, cursor);
  const m = /(^|\s)@([^\s]*)$/.exec(before);
  if (!m) return undefined;
  const query = m[2] ?? '';
  const start = cursor - query.length - 1;
  const scored: { f: string; s: number }[] = [];
  for (const f of files) {
    const s = fuzzyScore(query, f);
    if (s >= 0) scored.push({ f, s });
  }
  scored.sort((a, b) => b.s - a.s || a.f.localeCompare(b.f));
  const options = scored.slice(0, limit).map(({ f }) => ({ value: `@${f}`, label: f }));
  if (options.length === 0) return undefined;
  if (options.length === 1 && options[0]?.label === query) return undefined;
  return { start, end: cursor, kind: 'file', options };
}

/** `/model <partial>`: the models whose `provider/name` fuzzily matches what is typed. */
export function completeModel(value: string, cursor: number, models: () => readonly string[], limit = 8): Completion | undefined {
  const m = /^\/model\s+(\S*)$/.exec(value.slice(0, cursor));
  if (!m || value.slice(cursor).trim() !== '') return undefined;
  const query = m[1] ?? '';
  const scored: { model: string; s: number }[] = [];
  for (const model of models()) {
    const s = fuzzyScore(query, model);
    if (s >= 0) scored.push({ model, s });
  }
  scored.sort((a, b) => b.s - a.s || a.model.localeCompare(b.model));
  const options = scored.slice(0, limit).map(({ model }) => ({ value: model, label: model }));
  if (options.length === 0 || (options.length === 1 && options[0]?.value === query)) return undefined;
  return { start: cursor - query.length, end: cursor, kind: 'model', options };
}

/** The input with the chosen option in place of the token, followed by a space. */
export function applyCompletion(value: string, c: Completion, index: number): { value: string; cursor: number } {
  const opt = c.options[index] ?? c.options[0];
  if (!opt) return { value, cursor: c.end };
  const rest = value.slice(c.end);
  const insert = `${opt.value}${rest.startsWith(' ') ? '' : ' '}`;
  return { value: value.slice(0, c.start) + insert + rest, cursor: c.start + insert.length };
}

/** `@server:uri` mentions of MCP resources, for servers we know (the URI need not be listed: servers may take templates). */
export function mentionedResources(text: string, servers: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(^|\s)@([^\s:]+):(\S+)/g)) {
    const ref = `${m[2] ?? ''}:${(m[3] ?? '').replace(/[,.;!?)]+$/, '')}`;
    if (servers.has(m[2] ?? '') && !out.includes(ref)) out.push(ref);
  }
  return out;
}

/** `@path` mentions in a prompt that name files we know. */
export function mentionedFiles(text: string, files: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(^|\s)@([^\s]+)/g)) {
    const p = (m[2] ?? '').replace(/[,.;:!?)]+$/, '');
    if (files.has(p) && !out.includes(p)) out.push(p);
  }
  return out;
}
