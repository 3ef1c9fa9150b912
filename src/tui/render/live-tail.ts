/**
 * The unfinished end of the streaming answer, drawn no taller than `rows`:
 * the live region must stay shorter than the terminal, or Ink redraws the
 * whole screen on every frame and floods scrollback with copies
 * (ink-bun-spike §2). A long code block is drawn from its last lines, fence
 * styling kept; its full text reaches `<Static>` once the block is finished.
 */
import type { Tokens } from 'marked';
import { lex, renderBlocks, renderCodeTail, isVisible } from './markdown.ts';
import { c, GLYPH } from './theme.ts';

export function renderLiveTail(text: string, width: number, rows: number): string[] {
  if (rows <= 0 || text.trim() === '') return [];
  const tokens = lex(text).filter(isVisible);
  const last = tokens[tokens.length - 1];
  let lines: string[];
  if (tokens.length === 1 && last?.type === 'code') {
    lines = renderCodeTail(last as Tokens.Code, width, Math.max(1, rows - 1));
  } else {
    lines = renderBlocks(tokens, width);
  }
  if (lines.length <= rows) return lines;
  const hidden = lines.length - rows + 1;
  return [c().dim(`${GLYPH.ellipsis} ${hidden} more lines above (shown in full when finished)`), ...lines.slice(-(rows - 1))];
}
