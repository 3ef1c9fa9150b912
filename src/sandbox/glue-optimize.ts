/**
 * Trims jco's generated glue before it is cached. jco 1.35 emits a
 * `_debugLog('…', { …object literal… })` call at every step of every host
 * call and export call; each one reads `process.env.JCO_DEBUG` and allocates
 * its arguments, which costs more than the guest's own work for a small tool
 * and feeds the GC. The calls are removed outright (they only ever log), and
 * the helper becomes a no-op for any use that is not a plain statement.
 *
 * The scan is string-aware (quotes, template literals with `${}`, comments),
 * so a parenthesis inside a log message cannot end a call early. If the
 * generated code ever stops matching, the output is simply the input.
 */

const CALL = '_debugLog(';

/** Index just past the `)` that closes the `(` at `open`, or -1. */
function closeParen(src: string, open: number): number {
  let depth = 0;
  const templates: number[] = []; // brace depth at which each open `${` resumes its template
  let braces = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
    } else if (c === '`' || (c === '}' && templates.length > 0 && templates[templates.length - 1] === braces)) {
      if (c === '}') templates.pop();
      for (i++; i < src.length && src[i] !== '`'; i++) {
        if (src[i] === '\\') i++;
        else if (src[i] === '$' && src[i + 1] === '{') {
          templates.push(braces);
          i++;
          break;
        }
      }
    } else if (c === '/' && src[i + 1] === '/') {
      i = src.indexOf('\n', i);
      if (i < 0) return -1;
    } else if (c === '/' && src[i + 1] === '*') {
      i = src.indexOf('*/', i + 2) + 1;
      if (i <= 0) return -1;
    } else if (c === '{') braces++;
    else if (c === '}') braces--;
    else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

export function optimizeGlue(js: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const at = js.indexOf(CALL, from);
    if (at < 0) break;
    const lineStart = js.lastIndexOf('\n', at) + 1;
    const lead = js.slice(lineStart, at);
    // Only whole statements on their own line: `    _debugLog(…);` — not a definition, not inside a comment.
    // And never the sole body of a brace-less `if`/`else`/loop: the code before must end a statement or block.
    const prev = js.slice(Math.max(0, lineStart - 300), lineStart).trimEnd();
    const safe = /[;{}:]$/.test(prev) || /\n\s*\/\/[^\n]*$/.test(prev);
    const end = /^\s*$/.test(lead) && safe ? closeParen(js, at + CALL.length - 1) : -1;
    if (end < 0 || js[end] !== ';') {
      out += js.slice(from, at + CALL.length);
      from = at + CALL.length;
      continue;
    }
    out += js.slice(from, at);
    from = end + 1;
  }
  out += js.slice(from);
  return out.replace('if (!globalThis?.process?.env?.JCO_DEBUG) { return; }', 'return;');
}
