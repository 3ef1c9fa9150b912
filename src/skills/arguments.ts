/**
 * Splits an argument string the way a shell would, minus expansion:
 * whitespace separates, `'…'` is literal, `"…"` allows `\"` and `\\`, and a
 * backslash outside quotes escapes a space, a quote or a backslash (any other
 * backslash stays, so `src\x.ts` survives). An unclosed quote runs to the end
 * rather than failing: the text comes from people and models, and a best
 * effort beats a refusal.
 */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inToken = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else cur += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && (next === '"' || next === '\\')) {
        cur += next;
        i++;
      } else cur += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inToken = true;
      continue;
    }
    if (ch === '\\' && next !== undefined && (/\s/.test(next) || next === '"' || next === "'" || next === '\\')) {
      cur += next;
      inToken = true;
      i++;
      continue;
    }
    if (/\s/.test(ch)) {
      if (inToken) out.push(cur);
      cur = '';
      inToken = false;
      continue;
    }
    cur += ch;
    inToken = true;
  }
  if (inToken) out.push(cur);
  return out;
}
