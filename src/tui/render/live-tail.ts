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
import { wrapHard } from './wrap.ts';

/**
 * The uncommitted lines of a streaming code block. Drawn without colour: they
 * reach scrollback highlighted a moment later, and highlighting them on every
 * frame would cost CPU and bytes for lines on screen for a fraction of a second.
 */
export function renderCodeLinesTail(lines: string[], width: number, rows: number): string[] {
  if (rows <= 0) return [];
  return lines.slice(-rows).flatMap((l) => wrapHard(l, width)).slice(-rows);
}

export function renderLiveTail(text: string, width: number, rows: number): string[] {
  if (rows <= 0 || text.trim() === '') return [];
  const tokens = lex(text).filter(isVisible);
  const last = tokens[tokens.length - 1];
  const lines = tokens.length === 1 && last?.type === 'code' ? renderCodeTail(last as Tokens.Code, width, Math.max(1, rows - 1)) : renderBlocks(tokens, width);
  if (lines.length <= rows) return lines;
  const hidden = lines.length - rows + 1;
  return [c().dim(`${GLYPH.ellipsis} ${hidden} more lines above (shown in full when finished)`), ...lines.slice(-(rows - 1))];
}
