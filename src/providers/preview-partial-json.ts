/**
 * Reads what is already certain from the beginning of a JSON object that is
 * still streaming, so the UI can show `src/a.ts` or `npm test` before a tool
 * call's input is complete.
 *
 * Only top-level fields whose value is complete are returned: a string whose
 * closing quote has arrived, a number followed by a delimiter (a bare `12` at
 * the end may still become `123`), a literal spelled out in full, or a nested
 * array/object whose closing bracket has arrived. Anything malformed stops the
 * scan; what was read before it is kept.
 */
export function previewPartialJson(partial: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const s = partial;
  let i = skipWs(s, 0);
  if (s[i] !== '{') return out;
  i++;
  for (;;) {
    i = skipWs(s, i);
    if (s[i] !== '"') return out;
    const keyEnd = stringEnd(s, i);
    if (keyEnd === -1) return out;
    const key = decodeString(s.slice(i, keyEnd));
    if (key === undefined) return out;
    i = skipWs(s, keyEnd);
    if (s[i] !== ':') return out;
    i = skipWs(s, i + 1);
    const valueEnd = scanValue(s, i);
    if (valueEnd === -1) return out;
    const value = parse(s.slice(i, valueEnd));
    if (value === undefined) return out;
    out[key] = value.v;
    i = skipWs(s, valueEnd);
    if (s[i] !== ',') return out;
    i++;
  }
}

function skipWs(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\n' || s[i] === '\r' || s[i] === '\t')) i++;
  return i;
}

/** Index just past the closing quote of the string opening at `start`, or -1 if it has not arrived. */
function stringEnd(s: string, start: number): number {
  for (let i = start + 1; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
  }
  return -1;
}

/** Index just past a complete value starting at `start`, or -1 when it is incomplete or malformed. */
function scanValue(s: string, start: number): number {
  const c = s[start];
  if (c === undefined) return -1;
  if (c === '"') return stringEnd(s, start);
  if (c === '{' || c === '[') return containerEnd(s, start);
  if (c === '-' || (c >= '0' && c <= '9')) {
    let i = start;
    while (i < s.length && /[-+0-9.eE]/.test(s[i] ?? '')) i++;
    // Without a following delimiter the number may still be growing.
    return i < s.length ? i : -1;
  }
  for (const literal of ['true', 'false', 'null']) {
    if (s.startsWith(literal, start)) return start + literal.length;
  }
  return -1;
}

function containerEnd(s: string, start: number): number {
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      const end = stringEnd(s, i);
      if (end === -1) return -1;
      i = end - 1;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function decodeString(token: string): string | undefined {
  const v = parse(token);
  return v !== undefined && typeof v.v === 'string' ? v.v : undefined;
}

/** JSON.parse that reports failure as undefined; the box tells a parsed `null` apart from failure. */
function parse(token: string): { v: unknown } | undefined {
  try {
    return { v: JSON.parse(token) as unknown };
  } catch {
    return undefined;
  }
}
