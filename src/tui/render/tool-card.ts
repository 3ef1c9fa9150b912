/**
 * A tool call as a card: a header naming the tool and its arguments, the
 * status, and a one-line summary of the result (edits and writes add their
 * diff). The full output is kept for the expand key, never printed by default.
 */
import type { TodoItem, ToolCallView, ToolDisplay } from '../state/types.ts';
import { renderDiff } from './diff.ts';
import { c, GLYPH } from './theme.ts';
import { argumentSummary, displayName, knownInput, relativePath } from './tool-args.ts';
import { truncate, wrapHard, wrapText } from './wrap.ts';

export interface CardOptions {
  width: number;
  cwd: string;
  /** Date.now(), for the elapsed time of a running call. */
  now: number;
  /** Show the whole result instead of its summary. */
  expanded?: boolean;
  /** Cap on diff lines in a collapsed card. */
  maxDiffLines?: number;
  /** Lines of live output shown while a command runs. */
  liveOutputLines?: number;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} m ${Math.round((ms % 60_000) / 1000)} s`;
}

const PLURALS: Record<string, string> = { match: 'matches', entry: 'entries' };
const plural = (n: number, word: string) => `${n} ${n === 1 ? word : (PLURALS[word] ?? `${word}s`)}`;

/** The one-line summary of a finished call's result. */
export function resultSummary(call: ToolCallView, cwd: string): string {
  const d = call.display;
  if (call.status === 'aborted') return 'Interrupted';
  if (call.status === 'denied') return firstLine(call.content) || 'Denied by the user';
  if (call.status === 'error' && (!d || d.type === 'text')) return firstLine(call.content) || 'Failed';
  if (!d) return firstLine(call.content) || 'Done';
  switch (d.type) {
    case 'file_read':
      if (d.image) return `Read image ${relativePath(d.path, cwd)}`;
      return d.lines < d.totalLines
        ? `Read ${plural(d.lines, 'line')} (${d.startLine}–${d.startLine + d.lines - 1} of ${d.totalLines}) of ${relativePath(d.path, cwd)}`
        : `Read ${plural(d.lines, 'line')} of ${relativePath(d.path, cwd)}`;
    case 'diff':
      return d.created
        ? `Created ${relativePath(d.path, cwd)} with ${plural(d.added, 'line')}`
        : `Updated ${relativePath(d.path, cwd)} with ${plural(d.added, 'addition')} and ${plural(d.removed, 'removal')}`;
    case 'command': {
      const time = formatDuration(d.durationMs);
      // What the OS sandbox refused is said on the card, not only to the model.
      const refused = d.violations === undefined || d.violations.length === 0 ? '' : ` · sandbox refused ${d.violations[0] ?? ''}${d.violations.length > 1 ? ` (+${d.violations.length - 1} more)` : ''}`;
      const unsandboxed = d.sandbox === 'off' ? ' · unsandboxed' : '';
      if (d.timedOut) return `Timed out after ${time}${refused}${unsandboxed}`;
      return `${d.exitCode === null ? `Killed after ${time}` : `exit ${d.exitCode} in ${time}`}${refused}${unsandboxed}`;
    }
    case 'matches':
      return `Found ${plural(d.count, 'match')}${d.truncated ? ' (truncated)' : ''}`;
    case 'listing':
      return `Listed ${plural(d.entries, 'entry')} in ${relativePath(d.path, cwd)}`;
    case 'todos': {
      const done = d.items.filter((i) => i.status === 'completed').length;
      return `${done}/${d.items.length} done`;
    }
    case 'text':
      return firstLine(d.text);
  }
}

function firstLine(s: string | undefined): string {
  return (s ?? '').trim().split('\n')[0] ?? '';
}

function statusSuffix(call: ToolCallView, now: number): string {
  const k = c();
  switch (call.status) {
    case 'streaming':
      return k.dim(` ${GLYPH.ellipsis}`);
    case 'pending':
      return '';
    case 'waiting':
      return k.yellow(' · waiting for approval');
    case 'running':
      return k.dim(` · running ${formatDuration(now - (call.startedAt ?? now))}`);
    case 'done':
    case 'error':
    case 'aborted':
    case 'denied':
      return '';
  }
}

function bullet(call: ToolCallView): string {
  const k = c();
  switch (call.status) {
    case 'done':
      return k.green(GLYPH.bullet);
    case 'error':
    case 'denied':
      return k.red(GLYPH.bullet);
    case 'aborted':
      return k.gray(GLYPH.bullet);
    case 'waiting':
      return k.yellow(GLYPH.bullet);
    case 'running':
      return k.cyan(GLYPH.bullet);
    case 'streaming':
    case 'pending':
      return k.dim(GLYPH.bullet);
  }
}

export function renderTodoList(items: TodoItem[], width: number): string[] {
  const k = c();
  return items.flatMap((item) => {
    const mark = item.status === 'completed' ? k.green(GLYPH.todoDone) : item.status === 'in_progress' ? k.yellow(GLYPH.todoActive) : GLYPH.todoOpen;
    const text = item.status === 'completed' ? k.dim.strikethrough(item.content) : item.status === 'in_progress' ? k.bold(item.activeForm ?? item.content) : item.content;
    return wrapText(text, width, `${mark} `, '  ');
  });
}

function displayBody(d: ToolDisplay, opts: CardOptions, collapsed: boolean): string[] {
  const width = opts.width - 5;
  switch (d.type) {
    case 'diff':
      return renderDiff(d.patch, width, collapsed ? (opts.maxDiffLines ?? 60) : Number.POSITIVE_INFINITY);
    case 'todos':
      return renderTodoList(d.items, width);
    case 'command':
      return collapsed ? [] : d.output.replace(/\n$/, '').split('\n').flatMap((l) => wrapHard(l, width));
    case 'text':
      return collapsed ? [] : d.text.split('\n').flatMap((l) => wrapHard(l, width));
    case 'file_read':
    case 'matches':
    case 'listing':
      return [];
  }
}

/** The card's lines. Collapsed: header + summary (+ diff or todo list). Expanded: header + full result. */
export function renderToolCard(call: ToolCallView, opts: CardOptions): string[] {
  const k = c();
  const input = knownInput(call);
  const args = argumentSummary(call.name, input, opts.cwd);
  const title = `${k.bold(displayName(call.name))}${args ? `(${args})` : ''}`;
  const header = truncate(`${bullet(call)} ${title}${statusSuffix(call, opts.now)}`, opts.width);
  const lines = [header];
  const lead = `  ${GLYPH.result}  `;
  const pad = '     ';
  const body = (texts: string[]) => texts.forEach((l, i) => lines.push(truncate((i === 0 ? lead : pad) + l, opts.width)));

  if (call.status === 'running' || call.status === 'pending' || call.status === 'waiting' || call.status === 'streaming') {
    const d = call.display;
    if (call.status === 'running' && d?.type === 'command' && d.output) {
      const tail = d.output.replace(/\n$/, '').split('\n').slice(-(opts.liveOutputLines ?? 5));
      body(tail.map((l) => k.dim(l)));
    }
    // A tool's own progress line (an MCP server's progress notifications: "17% · step 1 of 6").
    if (call.status === 'running' && d?.type === 'text' && d.text.trim() !== '') body([k.dim(firstLine(d.text))]);
    return lines;
  }

  const summary = resultSummary(call, opts.cwd);
  const failed = call.status === 'error' || call.status === 'denied';
  body([failed ? k.red(summary) : call.status === 'aborted' ? k.gray(summary) : k.dim(summary)]);
  const d = call.display;
  if (opts.expanded) {
    const full = d && (d.type === 'command' || d.type === 'text' || d.type === 'diff' || d.type === 'todos') ? displayBody(d, opts, false) : (call.content ?? '').split('\n').flatMap((l) => wrapHard(l, opts.width - 5));
    full.forEach((l) => lines.push(pad + l));
  } else if (d && !failed) {
    displayBody(d, opts, true).forEach((l) => lines.push(pad + l));
  }
  return lines;
}

/** Whether expanding this card shows more than it does collapsed. */
export function hasMore(call: ToolCallView): boolean {
  const d = call.display;
  if (d?.type === 'command') return d.output.trim().length > 0;
  if (d?.type === 'diff') return true;
  return (call.content ?? '').includes('\n') || (call.content ?? '').length > 100;
}
