/**
 * What the dynamic part of the frame holds, as lines: the live cell above,
 * the bottom area below. Both are pure functions of the stores, so the live
 * cell can be clamped to exactly the rows the bottom area leaves free.
 */
import type { AppModel } from '../app-model.ts';
import type { RunState } from '../state/transcript.ts';
import { describeChord } from '../keymap.ts';
import { menuLines, pickerLines, promptLines, spinnerLine, statusLine, todoLines } from '../render/bottom.ts';
import { renderCodeLinesTail, renderLiveTail } from '../render/live-tail.ts';
import { dialogLines } from '../render/permission-dialog.ts';
import { elicitationLines } from '../render/elicitation-form.ts';
import { c, GLYPH } from '../render/theme.ts';
import { renderToolCard } from '../render/tool-card.ts';
import { renderLiveAgentCard } from '../render/agent-card.ts';
import type { ToolCallView } from '../state/types.ts';
import { prefixLines, truncate } from '../render/wrap.ts';

/** What the frame's lines are drawn from: the AppModel, or the pre-paint's model of its first frame (early-paint.ts). */
export type FrameSource = Pick<AppModel, 'transcript' | 'ui' | 'keymap' | 'elicitations'>;

/** Rows kept free so the frame never fills the screen (a full frame makes Ink clear and redraw everything). */
export const SAFETY_ROWS = 2;

/** `run` may be a snapshot a little older than the store: the spinner line changes once per frame, not per flush. */
export function bottomLines(app: FrameSource, width: number, rows: number, now: number, frame: number, run: RunState = app.transcript.run.get()): string[] {
  const ui = app.ui.get();
  const t = app.transcript;
  const running = run.phase !== 'idle';
  const req = t.permissions.get()[0];
  const form = app.elicitations.form();
  // One blank line between the transcript and everything below it.
  const lines: string[] = [''];
  lines.push(...todoLines(t.todos.get(), running, width));
  // A server's form, once open, stays in front of a permission dialog that came after it (it has the keys).
  if (form) {
    lines.push(...elicitationLines(form, app.elicitations.screen.get()?.waiting ?? 0, width, Math.max(10, rows - lines.length - 6)));
  } else if (req) {
    const call = t.live.get().tools.find((x) => x.id === req.toolUseId);
    lines.push(...dialogLines(req, call, ui.dialog, width, Math.max(10, rows - lines.length - 6), ui.info.cwd));
  } else if (ui.picker) {
    lines.push(...pickerLines(ui.picker, width, Math.max(6, rows - lines.length - 6)));
  } else {
    const key = describeChord(app.keymap.interrupt[0] ?? 'escape').toLowerCase();
    lines.push(...spinnerLine(run, now, frame, key, ui.mode));
    const hint = running ? 'Type to queue a message for when this turn ends' : 'Ask moat to do something · /help';
    // While the model works, the rule and the status line are left out: every move of output into scrollback
    // makes Ink redraw this whole area, so each line here is paid again for every few lines streamed.
    lines.push(...promptLines(ui.editor, width, hint, true, !running));
    lines.push(...menuLines(ui.completion, ui.completionIndex, width));
  }
  if (!running || req || form || ui.picker) lines.push(statusLine(ui, t.usage.get(), width, now, describeChord(app.keymap.cycleMode[0] ?? 'shift+tab')));
  return lines;
}

let heightMemo: { key: readonly unknown[]; height: number } | undefined;

/**
 * How many lines `bottomLines` returns, without drawing them when nothing it
 * depends on changed: the live cell asks on every store notification.
 */
export function bottomHeight(app: AppModel, width: number, rows: number): number {
  const t = app.transcript;
  const perms = t.permissions.get();
  // Only the dialog reads the live tool calls; the spinner adds one line whatever it shows.
  const key = [app, app.ui.get(), app.elicitations.screen.get(), perms, t.todos.get(), t.run.get().phase === 'idle', perms.length > 0 ? t.live.get().tools : undefined, width, rows];
  if (heightMemo && heightMemo.key.length === key.length && heightMemo.key.every((v, i) => Object.is(v, key[i]))) return heightMemo.height;
  const height = bottomLines(app, width, rows, 0, 0).length;
  heightMemo = { key, height };
  return height;
}

/**
 * Sub-agent cards live at once; more running agents are summed up in one
 * line. Each card is two lines (plus nested agents, capped), so a dozen
 * parallel agents still leave the screen to the transcript.
 */
export const MAX_LIVE_AGENT_CARDS = 4;

/** The active tool calls (a `task` call drawn as its sub-agent's card), then agents no live call shows. */
function activeLines(app: FrameSource, tools: ToolCallView[], width: number, now: number, outputLines: number): string[] {
  const board = app.transcript.agents;
  const cwd = app.ui.get().info.cwd;
  const out: string[] = [];
  let cards = 0;
  let hidden = 0;
  for (const call of tools) {
    const agent = call.name === 'Task' ? board.forTool(call.id) : undefined;
    if (!agent) {
      out.push('', ...renderToolCard(call, { width, cwd, now, liveOutputLines: outputLines }));
    } else if (cards < MAX_LIVE_AGENT_CARDS) {
      cards++;
      out.push('', ...renderLiveAgentCard(board.card(agent), { width, cwd, now, maxChildren: 2 }));
    } else {
      hidden++;
    }
  }
  for (const agent of board.floating()) {
    if (cards >= MAX_LIVE_AGENT_CARDS) {
      hidden++;
      continue;
    }
    cards++;
    out.push('', ...renderLiveAgentCard(board.card(agent), { width, cwd, now, maxChildren: 2 }));
  }
  if (hidden > 0) out.push('', c().dim(truncate(`  ${GLYPH.ellipsis} ${hidden} more sub-agent${hidden === 1 ? '' : 's'} running · /agents lists them`, width)));
  return out;
}

/** The live cell: open thinking, the unfinished text block, the active tool calls — at most `maxRows` lines. */
export function liveLines(app: FrameSource, width: number, maxRows: number, now: number): string[] {
  if (maxRows <= 0) return [];
  const k = c();
  const live = app.transcript.live.get();
  const toolLines = activeLines(app, live.tools, width, now, live.expanded ? 15 : 5);
  const out: string[] = [];
  if (live.thinking) {
    const text = live.thinking.text.trim();
    out.push('');
    if (live.expanded && text) {
      out.push(k.dim.italic(`${GLYPH.thinking} Thinking…`));
      out.push(...text.split('\n').slice(-Math.max(1, maxRows - 3)).map((l) => k.dim(truncate(`  ${l}`, width))));
    } else {
      const last = text.split('\n').pop() ?? '';
      out.push(truncate(k.dim.italic(`${GLYPH.thinking} Thinking… `) + k.dim(last), width));
    }
  }
  const textRows = maxRows - out.length - toolLines.length - 1;
  if (live.text.trim() && textRows > 0) {
    const tail = live.codeTail ? renderCodeLinesTail(live.codeTail.lines, width - 2, textRows) : renderLiveTail(live.text, width - 2, textRows);
    // A code block continuing committed lines joins them without a gap.
    if (live.codeLinesCommitted === 0) out.push('');
    out.push(...prefixLines(tail, live.messageStarted ? '  ' : `${k.white(GLYPH.bullet)} `, '  '));
  }
  out.push(...toolLines);
  return out.length > maxRows ? out.slice(-maxRows) : out;
}
