/**
 * The fixed part below the transcript: todo list, dialog or picker, spinner,
 * prompt, completion menu, status line. Pure functions of state to lines, so
 * the live tail can be clamped to exactly what is left of the screen.
 */
import type { Completion } from '../state/completion.ts';
import type { EditorState } from '../state/line-editor.ts';
import type { RunState, UsageState } from '../state/transcript.ts';
import type { TodoItem } from '../state/types.ts';
import type { Picker, UiState } from '../state/ui-state.ts';
import { c, GLYPH, SPINNER_FRAMES } from './theme.ts';
import { formatDuration, renderTodoList } from './tool-card.ts';
import { stringWidth, truncate } from './wrap.ts';

/** At most this many input lines are shown; the view follows the cursor. */
export const MAX_INPUT_ROWS = 8;
const MAX_MENU_ROWS = 6;
const MAX_TODO_ROWS = 8;

/** Where the cursor is drawn, inside the editor's text while it is laid out. */
const CURSOR_MARKER = '\u0000';

function chunkLine(line: string, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  let w = 0;
  for (const ch of line) {
    // The marker is zero columns, as string-width counts it, without string-width's grapheme segmenter: the
    // first frame's empty prompt is only the marker, and nothing else in that frame needs the segmenter.
    const cw = ch === CURSOR_MARKER ? 0 : stringWidth(ch);
    if (w + cw > width && cur) {
      out.push(cur);
      cur = '';
      w = 0;
    }
    cur += ch;
    w += cw;
  }
  out.push(cur);
  return out;
}

/** The prompt between two rules, with the cursor drawn in inverse video. */
export function promptLines(editor: EditorState, width: number, placeholder: string, focused: boolean, rule = true): string[] {
  const k = c();
  const avail = Math.max(4, width - 2);
  const marker = CURSOR_MARKER;
  const withCursor = focused ? `${editor.value.slice(0, editor.cursor)}${marker}${editor.value.slice(editor.cursor)}` : editor.value;
  const rows: string[] = [];
  let cursorRow = 0;
  for (const logical of withCursor.split('\n')) {
    for (const chunk of chunkLine(logical, avail)) {
      if (chunk.includes(marker)) cursorRow = rows.length;
      rows.push(chunk);
    }
  }
  const start = Math.max(0, Math.min(cursorRow - MAX_INPUT_ROWS + 1, rows.length - MAX_INPUT_ROWS));
  const visible = rows.slice(start, start + MAX_INPUT_ROWS).map((r) => {
    const i = r.indexOf(marker);
    if (i < 0) return r;
    const after = r.slice(i + 1);
    const ch = [...after][0];
    return r.slice(0, i) + k.inverse(ch ?? ' ') + after.slice(ch?.length ?? 0);
  });
  if (editor.value === '' && placeholder) visible[0] = `${focused ? k.inverse(' ') : ''}${k.dim(placeholder)}`;
  const input = visible.map((l, i) => `${i === 0 && start === 0 ? k.bold(GLYPH.user) : ' '} ${l}`);
  // One rule above the input only: every full redraw rewrites these lines, so they are kept light.
  return rule ? [k.gray('─'.repeat(width)), ...input] : input;
}

export function menuLines(menu: Completion | undefined, index: number, width: number): string[] {
  if (!menu) return [];
  const k = c();
  const n = menu.options.length;
  const start = Math.max(0, Math.min(index - MAX_MENU_ROWS + 1, n - MAX_MENU_ROWS));
  return menu.options.slice(start, start + MAX_MENU_ROWS).map((o, j) => {
    const active = start + j === index;
    const label = active ? k.cyan(o.label) : o.label;
    const line = `  ${label}${o.detail ? `  ${k.dim(o.detail)}` : ''}`;
    return truncate(active ? k.bold(line) : line, width);
  });
}

export function pickerLines(picker: Picker | undefined, width: number, maxRows: number): string[] {
  if (!picker) return [];
  const k = c();
  const rows = Math.max(3, Math.min(picker.items.length, maxRows - 3));
  const start = Math.max(0, Math.min(picker.index - rows + 1, picker.items.length - rows));
  return [
    k.bold(picker.title),
    ...picker.items.slice(start, start + rows).map((it, j) => {
      const active = start + j === picker.index;
      const line = `${active ? k.cyan('❯') : ' '} ${active ? k.cyan(it.label) : it.label}${it.detail ? `  ${k.dim(it.detail)}` : ''}`;
      return truncate(line, width);
    }),
    k.dim('↑/↓ to choose · Enter to select · Esc to cancel'),
  ];
}

export function todoLines(todos: TodoItem[], running: boolean, width: number): string[] {
  if (!running || todos.length === 0) return [];
  const lines = renderTodoList(todos, width - 2).map((l) => `  ${l}`);
  if (lines.length <= MAX_TODO_ROWS) return lines;
  // Keep the item in progress in view.
  const active = todos.findIndex((t) => t.status === 'in_progress');
  const start = Math.max(0, Math.min(active - 2, lines.length - MAX_TODO_ROWS));
  return lines.slice(start, start + MAX_TODO_ROWS);
}

function compact(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

const VERBS: Record<RunState['phase'], string> = {
  idle: '',
  requesting: 'Waiting for the model',
  thinking: 'Thinking',
  responding: 'Writing',
  tool: 'Running',
  waiting: 'Waiting for your approval',
};

export function spinnerLine(run: RunState, now: number, frame: number, interruptKey: string, mode = 'default'): string[] {
  if (run.phase === 'idle') return [];
  const k = c();
  const elapsed = formatDuration(now - run.startedAt).replace(/\.\d s$/, ' s');
  const tokens = run.outputTokens + Math.round(run.streamedChars / 4);
  const verb = run.aborting ? 'Interrupting' : run.retry ? `Retrying (attempt ${run.retry.attempt})` : VERBS[run.phase];
  const spin = k.magenta(SPINNER_FRAMES[frame % SPINNER_FRAMES.length] ?? '*');
  const details = [elapsed, tokens > 0 ? `↓ ${compact(tokens)} tokens` : '', run.aborting ? '' : `${interruptKey} to interrupt`].filter(Boolean).join(' · ');
  // The status line is hidden while the model works; a mode other than the default stays in view here.
  const label = MODE_LABEL[mode] ?? mode;
  const modeText = label ? ` ${mode === 'bypassPermissions' ? k.red(label) : k.cyan(label)}` : '';
  return [`${spin} ${k.bold(`${verb}…`)} ${k.dim(`(${details})`)}${modeText}`];
}

const MODE_LABEL: Record<string, string> = {
  default: '',
  acceptEdits: '⏵⏵ accept edits',
  plan: '⏸ plan mode',
  bypassPermissions: '⚠ bypass permissions',
};

export function statusLine(ui: UiState, usage: UsageState, width: number, now: number, cycleKey: string): string {
  const k = c();
  const i = ui.info;
  if (now < ui.exitArmedUntil) return k.yellow('Press Ctrl-C again to exit');
  const folder = i.cwd.split('/').filter(Boolean).pop() ?? i.cwd;
  const left = `${i.model} · ${folder}${i.gitBranch ? ` (${i.gitBranch})` : ''}`;
  const pct = i.contextWindow > 0 ? Math.round((usage.contextTokens / i.contextWindow) * 100) : 0;
  const mode = MODE_LABEL[ui.mode] ?? ui.mode;
  const modeText = mode ? (ui.mode === 'bypassPermissions' ? k.red(mode) : k.cyan(mode)) + k.dim(` (${cycleKey})`) : k.dim(`${cycleKey}: mode`);
  const sandbox = i.osSandbox === true ? `${k.green('⛨ sandboxed')} ${k.dim('·')} ` : '';
  const right = `${sandbox}${modeText} ${k.dim(`· ctx ${pct}% · $${usage.costUsd.toFixed(2)}`)}`;
  const gap = width - stringWidth(left) - stringWidth(right);
  return gap >= 2 ? `${k.dim(left)}${' '.repeat(gap)}${right}` : truncate(`${k.dim(left)} ${right}`, width);
}
