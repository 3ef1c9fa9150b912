/**
 * File-name globs with ripgrep's `--glob` semantics, which is what models
 * expect from Claude Code's tools: a pattern without `/` matches the base name
 * at any depth (`*.ts` finds `src/a/b.ts`); a pattern with `/` matches the path
 * relative to the search folder; a leading `!` excludes.
 */
export interface GlobFilter {
  matches(rel: string, name: string): boolean;
}

interface Compiled {
  glob: Bun.Glob;
  basename: boolean;
  negate: boolean;
}

function compile(raw: string): Compiled {
  let p = raw.trim();
  const negate = p.startsWith('!');
  if (negate) p = p.slice(1);
  if (p.startsWith('./')) p = p.slice(2);
  else if (p.startsWith('/')) p = p.slice(1);
  return { glob: new Bun.Glob(p), basename: !p.includes('/'), negate };
}

/** Split `*.{ts,tsx} !*.d.ts` style lists on whitespace and top-level commas (not inside braces). */
export function splitGlobList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '{') depth++;
    else if (ch === '}') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || ch === ' ' || ch === '\t' || ch === '\n')) {
      if (cur !== '') out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/**
 * A file passes when it matches at least one positive pattern (or there are
 * none) and no negative one.
 */
export function globFilter(patterns: readonly string[]): GlobFilter {
  const compiled = patterns.map(compile);
  const positive = compiled.filter((c) => !c.negate);
  const negative = compiled.filter((c) => c.negate);
  const test = (c: Compiled, rel: string, name: string): boolean => c.glob.match(c.basename ? name : rel);
  return {
    matches(rel, name) {
      if (positive.length > 0 && !positive.some((c) => test(c, rel, name))) return false;
      return !negative.some((c) => test(c, rel, name));
    },
  };
}
