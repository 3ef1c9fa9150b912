/** What the Grep tool does once called: walks the files, matches, and formats what it found. */
import { join } from 'node:path';
import { displayPath } from '../../paths.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { plural } from '../shared/format.ts';
import { globFilter, splitGlobList } from '../shared/glob-filter.ts';
import { resolveSearchPath } from '../shared/search-root.ts';
import { BINARY_SNIFF_BYTES } from '../shared/sniff.ts';
import { mtimeOf, walkFiles } from '../shared/walk.ts';
import { FileReader, MAX_GREP_FILE_BYTES } from './file-reader.ts';
import { KNOWN_TYPES, typeFilter } from './file-types.ts';
import { formatContent } from './format-content.ts';
import type { GrepInput as Input, GrepMode as Mode } from './schema.ts';
import { compileMatcher, scanMatches, type Matcher, type MatchRange } from './matcher.ts';

/** Default `head_limit` per mode: files listed, content lines, count entries. */
const GREP_DEFAULT_LIMITS = { files_with_matches: 200, content: 500, count: 200 } as const;
/** Whatever the limits, the output for the model stops here. */
const MAX_GREP_OUTPUT_CHARS = 30_000;
/** Yield to the event loop this often, so an abort can land during a long search. */
const YIELD_EVERY = 500;

interface Candidate {
  real: string;
  shown: string;
}

function* candidates(root: { path: string; realPath: string; isDir: boolean }, input: Input): Generator<Candidate> {
  if (!root.isDir) {
    yield { real: root.realPath, shown: root.path };
    return;
  }
  const byGlob = input.glob === undefined ? undefined : globFilter(splitGlobList(input.glob));
  const byType = input.type === undefined ? undefined : typeFilter(input.type);
  if (input.type !== undefined && byType === undefined) {
    throw new ToolError(`Unknown type "${input.type}". Known types: ${KNOWN_TYPES.join(', ')}. Or use glob instead.`);
  }
  for (const e of walkFiles(root.realPath)) {
    // Like rg, symlinks met during the walk are not followed (they may lead outside the allowed folders).
    if (e.symlink) continue;
    if (byType !== undefined && !byType(e.name)) continue;
    if (byGlob !== undefined && !byGlob.matches(e.rel, e.name)) continue;
    yield { real: e.path, shown: join(root.path, e.rel) };
  }
}

interface Outcome {
  rows: string[];
  /** Files with a match (files and count modes) or rows (content mode) found in total, before limits. */
  total: number;
  truncated: boolean;
  skippedBig: number;
}

async function search(input: Input, ctx: ToolContext, matcher: Matcher, mode: Mode, limit: number): Promise<Outcome> {
  const root = resolveSearchPath(ctx, input.path);
  const reader = new FileReader();
  const literal = matcher.literal;
  const before = input['-B'] ?? input['-C'] ?? 0;
  const after = input['-A'] ?? input['-C'] ?? 0;
  const lineNumbers = input['-n'] ?? true;
  const files: { shown: string; real: string }[] = [];
  const counts: string[] = [];
  const rows: string[] = [];
  let skippedBig = 0;
  let seen = 0;
  let total = 0;
  for (const c of candidates(root, input)) {
    if (++seen % YIELD_EVERY === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (ctx.signal.aborted) throw new ToolError('Aborted.');
    }
    const read = reader.read(c.real);
    if (read.kind === 'too_big') skippedBig++;
    if (read.kind !== 'ok') continue;
    // The buffer is reused: only its first `len` bytes belong to this file.
    const len = read.length;
    const bytes = reader.buffer.subarray(0, len);
    if (literal !== undefined && bytes.indexOf(literal) === -1) continue;
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) !== -1) continue;
    const text = bytes.toString('utf8');
    const shown = displayPath(ctx, c.shown);
    if (mode === 'files_with_matches') {
      let hit = false;
      scanMatches(text, matcher, () => ((hit = true), false));
      if (hit) files.push({ shown, real: c.real });
    } else if (mode === 'count') {
      let n = 0;
      scanMatches(text, matcher, () => (n++, true));
      if (n > 0) counts.push(`${shown}:${n}`);
    } else {
      const ranges: MatchRange[] = [];
      scanMatches(text, matcher, (r) => (ranges.push(r), true));
      if (ranges.length === 0) continue;
      if (rows.length > 0 && (before > 0 || after > 0)) rows.push('--');
      const fileRows = formatContent(shown, text, ranges, before, after, lineNumbers);
      total += fileRows.length;
      rows.push(...fileRows);
      // Content mode can stop early: later files would only be cut.
      if (rows.length > limit) return { rows: rows.slice(0, limit), total, truncated: true, skippedBig };
    }
  }
  if (mode === 'files_with_matches') {
    const withTime = files.map((f) => ({ ...f, mtime: mtimeOf(f.real) }));
    // Newest first, as the recently touched files are usually the interesting ones.
    withTime.sort((a, b) => b.mtime - a.mtime || (a.shown < b.shown ? -1 : 1));
    return { rows: withTime.slice(0, limit).map((f) => f.shown), total: files.length, truncated: files.length > limit, skippedBig };
  }
  if (mode === 'count') return { rows: counts.slice(0, limit), total: counts.length, truncated: counts.length > limit, skippedBig };
  return { rows, total, truncated: false, skippedBig };
}

/** Join rows, stopping at the character cap; returns how many rows fit. */
function capRows(rows: readonly string[]): { text: string; kept: number } {
  let chars = 0;
  let kept = 0;
  for (const row of rows) {
    if (chars + row.length + 1 > MAX_GREP_OUTPUT_CHARS && kept > 0) break;
    chars += row.length + 1;
    kept++;
  }
  return { text: rows.slice(0, kept).join('\n'), kept };
}

export async function executeGrep(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const mode: Mode = input.output_mode ?? 'files_with_matches';
  const matcher = compileMatcher(input.pattern, input['-i'] ?? false, input.multiline ?? false);
  const limit = input.head_limit ?? GREP_DEFAULT_LIMITS[mode];
  const found = await search(input, ctx, matcher, mode, limit);
  const notes: string[] = [];
  if (found.skippedBig > 0) {
    notes.push(`(Skipped ${plural(found.skippedBig, 'file')} over ${MAX_GREP_FILE_BYTES / (1024 * 1024)} MB; search them with a command if needed.)`);
  }
  const where = input.path ?? 'the working folder';
  if (found.rows.length === 0) {
    const text = [`No matches for /${input.pattern}/ in ${where}.`, ...notes].join('\n');
    return { content: text, display: { type: 'matches', count: 0, truncated: false } };
  }
  const { text, kept } = capRows(found.rows);
  const truncated = found.truncated || kept < found.rows.length;
  const unit = mode === 'content' ? 'lines' : 'entries';
  if (truncated) {
    notes.push(`(Output cut after ${kept} ${unit}. Narrow the search with path, glob or type, or raise head_limit.)`);
  }
  const header = mode === 'files_with_matches' ? `Found ${plural(found.total, 'file')}\n` : '';
  const body = notes.length > 0 ? `${header}${text}\n\n${notes.join('\n')}` : `${header}${text}`;
  return { content: body, display: { type: 'matches', count: found.total, truncated } };
}
