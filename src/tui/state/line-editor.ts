/**
 * The prompt's text and cursor, edited like a shell line (readline keys),
 * extended to several lines. Pure functions: the component only maps keys to
 * these and draws the result.
 */
export interface EditorState {
  value: string;
  /** Index into `value` (UTF-16 units, always on a code point boundary). */
  cursor: number;
}

export const EMPTY_EDITOR: EditorState = { value: '', cursor: 0 };

const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);

function prevBoundary(s: string, i: number): number {
  if (i <= 0) return 0;
  const code = s.charCodeAt(i - 1);
  return code >= 0xdc00 && code <= 0xdfff && i >= 2 ? i - 2 : i - 1;
}

function nextBoundary(s: string, i: number): number {
  if (i >= s.length) return s.length;
  const code = s.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff ? i + 2 : i + 1;
}

export function insert(st: EditorState, text: string): EditorState {
  const clean = text.replace(/\r\n?/g, '\n');
  return { value: st.value.slice(0, st.cursor) + clean + st.value.slice(st.cursor), cursor: st.cursor + clean.length };
}

export function left(st: EditorState): EditorState {
  return { ...st, cursor: prevBoundary(st.value, st.cursor) };
}

export function right(st: EditorState): EditorState {
  return { ...st, cursor: nextBoundary(st.value, st.cursor) };
}

function wordStartBefore(s: string, i: number): number {
  let j = i;
  while (j > 0 && !isWordChar(s[j - 1])) j--;
  while (j > 0 && isWordChar(s[j - 1])) j--;
  return j;
}

export function wordLeft(st: EditorState): EditorState {
  return { ...st, cursor: wordStartBefore(st.value, st.cursor) };
}

export function wordRight(st: EditorState): EditorState {
  const s = st.value;
  let j = st.cursor;
  while (j < s.length && !isWordChar(s[j])) j++;
  while (j < s.length && isWordChar(s[j])) j++;
  return { ...st, cursor: j };
}

function lineStartOf(s: string, i: number): number {
  return s.lastIndexOf('\n', i - 1) + 1;
}

function lineEndOf(s: string, i: number): number {
  const e = s.indexOf('\n', i);
  return e < 0 ? s.length : e;
}

export function lineStart(st: EditorState): EditorState {
  return { ...st, cursor: lineStartOf(st.value, st.cursor) };
}

export function lineEnd(st: EditorState): EditorState {
  return { ...st, cursor: lineEndOf(st.value, st.cursor) };
}

export function deleteBack(st: EditorState): EditorState {
  if (st.cursor === 0) return st;
  const p = prevBoundary(st.value, st.cursor);
  return { value: st.value.slice(0, p) + st.value.slice(st.cursor), cursor: p };
}

export function deleteForward(st: EditorState): EditorState {
  if (st.cursor >= st.value.length) return st;
  const n = nextBoundary(st.value, st.cursor);
  return { value: st.value.slice(0, st.cursor) + st.value.slice(n), cursor: st.cursor };
}

/** Ctrl-W: the word before the cursor and the spaces after it, as in bash (here word = letters/digits/_). */
export function deleteWordBack(st: EditorState): EditorState {
  const start = wordStartBefore(st.value, st.cursor);
  return { value: st.value.slice(0, start) + st.value.slice(st.cursor), cursor: start };
}

/** Ctrl-U: to the start of the current line (the whole prompt when it is one line). */
export function deleteToStart(st: EditorState): EditorState {
  let start = lineStartOf(st.value, st.cursor);
  if (start === st.cursor && start > 0) start -= 1; // at a line start: join with the line above
  return { value: st.value.slice(0, start) + st.value.slice(st.cursor), cursor: start };
}

/** Ctrl-K: to the end of the current line. */
export function deleteToEnd(st: EditorState): EditorState {
  let end = lineEndOf(st.value, st.cursor);
  if (end === st.cursor && end < st.value.length) end += 1; // at a line end: join with the next line
  return { value: st.value.slice(0, st.cursor) + st.value.slice(end), cursor: st.cursor };
}

/** Moves to the line above/below, keeping the column; undefined when already on the first/last line. */
export function verticalMove(st: EditorState, dir: -1 | 1): EditorState | undefined {
  const s = st.value;
  const start = lineStartOf(s, st.cursor);
  const col = st.cursor - start;
  if (dir < 0) {
    if (start === 0) return undefined;
    const prevStart = lineStartOf(s, start - 1);
    return { ...st, cursor: Math.min(prevStart + col, start - 1) };
  }
  const end = lineEndOf(s, st.cursor);
  if (end >= s.length) return undefined;
  const nextEnd = lineEndOf(s, end + 1);
  return { ...st, cursor: Math.min(end + 1 + col, nextEnd) };
}

export function setValue(value: string): EditorState {
  return { value, cursor: value.length };
}
