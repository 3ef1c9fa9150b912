/** Unified diffs with added/removed counts, and line-ending helpers. */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import type { PatchHunk } from '../../types.ts';

export interface PatchSummary {
  patch: string;
  hunks: PatchHunk[];
  added: number;
  removed: number;
}

/** Unified diff of one file's change, with added/removed line counts for the UI. */
export function makePatch(fileName: string, before: string, after: string): PatchSummary {
  const structured = structuredPatch(fileName, fileName, before, after, undefined, undefined, { context: 3 });
  let added = 0;
  let removed = 0;
  for (const hunk of structured.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  // Plain `---`/`+++` headers: the Index: and ==== lines are noise in a terminal.
  const hunks = structured.hunks.map((h) => ({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines }));
  return { patch: formatPatch(structured, FILE_HEADERS_ONLY), hunks, added, removed };
}

/** The line ending a file mostly uses; files without any newline count as LF. */
export function detectLineEnding(text: string): '\r\n' | '\n' {
  const crlf = text.split('\r\n').length - 1;
  if (crlf === 0) return '\n';
  const lf = text.split('\n').length - 1 - crlf;
  return crlf >= lf ? '\r\n' : '\n';
}

/** Rewrite bare LFs as CRLF (existing CRLFs are kept as they are). */
export function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}
