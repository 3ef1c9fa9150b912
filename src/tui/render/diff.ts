/**
 * A unified diff (as the edit and write tools produce it) drawn with line
 * numbers and colour: removed lines red with the old number, added lines
 * green with the new number, context dim.
 */
import { structuredPatch } from 'diff';
import { c, GLYPH } from './theme.ts';
import { stringWidth, wrapHard } from './wrap.ts';

interface DiffRow {
  kind: ' ' | '+' | '-' | '@';
  num?: number;
  text: string;
}

function parsePatch(patch: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      if (inHunk) rows.push({ kind: '@', text: '' });
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      continue;
    }
    if (!inHunk || line.startsWith('\\')) continue; // headers, "\ No newline at end of file"
    const kind = line[0];
    const text = line.slice(1);
    if (kind === '+') rows.push({ kind: '+', num: newNo++, text });
    else if (kind === '-') rows.push({ kind: '-', num: oldNo++, text });
    else if (kind === ' ') {
      rows.push({ kind: ' ', num: newNo, text });
      oldNo++;
      newNo++;
    }
  }
  return rows;
}

/** Styled lines of a unified diff, at most `maxLines` (the rest is counted in a last line). */
export function renderDiff(patch: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const k = c();
  const rows = parsePatch(patch);
  const numWidth = Math.max(3, ...rows.map((r) => String(r.num ?? '').length));
  const out: string[] = [];
  for (const r of rows) {
    if (r.kind === '@') {
      out.push(k.dim(' '.repeat(numWidth) + ' ⋮'));
      continue;
    }
    const num = String(r.num).padStart(numWidth);
    const prefix = `${num} ${r.kind} `;
    const body = r.text.replace(/\t/g, '  ').replace(/\r$/, '');
    const pieces = wrapHard(body, Math.max(10, width - stringWidth(prefix)));
    pieces.forEach((piece, i) => {
      const head = i === 0 ? prefix : ' '.repeat(prefix.length);
      if (r.kind === '+') out.push(k.green(head + piece));
      else if (r.kind === '-') out.push(k.red(head + piece));
      else out.push(k.dim(head) + piece);
    });
  }
  if (out.length > maxLines) {
    const hidden = out.length - maxLines + 1;
    return [...out.slice(0, maxLines - 1), k.dim(`${GLYPH.ellipsis} ${hidden} more lines`)];
  }
  return out;
}

/** A patch between two snippets (an edit's old and new strings when the tool gave no preview). */
export function snippetPatch(oldText: string, newText: string): string {
  const p = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: 3 });
  return p.hunks
    .map((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines].join('\n'))
    .join('\n');
}
