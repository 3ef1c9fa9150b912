/**
 * Lines of one finished transcript item, as `<Static>` prints them. Every
 * item starts with a blank line, so items printed separately are spaced the
 * same as blocks inside one message.
 */
import type { StaticItem } from '../state/types.ts';
import { renderAgentCard } from './agent-card.ts';
import { highlightLines } from './highlight.ts';
import { renderMarkdown } from './markdown.ts';
import { c, GLYPH } from './theme.ts';
import { formatDuration, renderTodoList, renderToolCard } from './tool-card.ts';
import { prefixLines, wrapHard, wrapText } from './wrap.ts';

export interface ItemContext {
  width: number;
  cwd: string;
  now: number;
}

/** Assistant text is indented under a bullet, like the tool cards. */
export function assistantLines(text: string, first: boolean, width: number): string[] {
  const lines = renderMarkdown(text, width - 2);
  return prefixLines(lines, first ? `${c().white(GLYPH.bullet)} ` : '  ', '  ');
}

export function thinkingLine(seconds: number, hint: string): string {
  const k = c();
  const time = seconds > 0 ? ` for ${seconds} s` : '';
  return k.dim.italic(`${GLYPH.thinking} Thought${time}`) + (hint ? k.dim(` (${hint})`) : '');
}

export function renderItem(item: StaticItem, ctx: ItemContext, expandHint = 'ctrl+o to expand'): string[] {
  const k = c();
  const body = ((): string[] => {
    switch (item.kind) {
      case 'banner': {
        const i = item.info;
        return [
          `${k.bold('moat')} ${k.dim(`v${i.version}`)}  ${k.dim(i.model)}`,
          k.dim(`${i.cwd}${i.gitBranch ? ` (${i.gitBranch})` : ''}`),
          k.dim('/help for commands · Esc interrupts · Shift-Tab changes the permission mode'),
        ];
      }
      case 'user':
        return wrapText(item.text, ctx.width, `${k.bold(GLYPH.user)} `, '  ').map((l) => k.bold(l));
      case 'markdown':
        return assistantLines(item.text, item.first, ctx.width);
      case 'code': {
        const skip = item.context === undefined ? 0 : item.context.split('\n').length;
        const source = item.context === undefined ? item.text : `${item.context}\n${item.text}`;
        const lines = highlightLines(source, item.lang)
          .slice(skip)
          .flatMap((l) => wrapHard(l, ctx.width - 2));
        return prefixLines(lines, item.first ? `${c().white(GLYPH.bullet)} ` : '  ', '  ');
      }
      case 'thinking':
        return [thinkingLine(item.seconds, expandHint)];
      case 'tool':
        // Expanded (the expand key), a task card shows the sub-agent's whole answer as the model got it.
        if (item.agent && !item.expanded) return renderAgentCard(item.agent, { width: ctx.width, cwd: ctx.cwd, now: ctx.now });
        return renderToolCard(item.call, { width: ctx.width, cwd: ctx.cwd, now: ctx.now, expanded: item.expanded === true });
      case 'subagent':
        return renderAgentCard(item.card, { width: ctx.width, cwd: ctx.cwd, now: ctx.now });
      case 'notice': {
        const colour = item.level === 'error' ? k.red : item.level === 'warning' ? k.yellow : k.dim;
        const mark = item.level === 'error' ? GLYPH.error : item.level === 'warning' ? GLYPH.warn : GLYPH.result;
        return wrapText(colour(item.text), ctx.width, `${colour(mark)} `, '  ');
      }
      case 'interrupted':
        return [k.red(`  ${GLYPH.result}  Interrupted · what should moat do instead?`)];
      case 'shell': {
        const r = item.result;
        const out = r.output.replace(/\n$/, '');
        const lines = out ? out.split('\n').flatMap((l) => wrapHard(l, ctx.width - 5)) : [];
        const status = r.exitCode === 0 ? k.dim(`exit 0 in ${formatDuration(r.durationMs)}`) : k.red(`exit ${r.exitCode ?? 'killed'} in ${formatDuration(r.durationMs)}`);
        return [`${k.magenta('!')} ${k.bold(r.command)}`, ...prefixLines([...lines, status], `  ${GLYPH.result}  `, '     ')];
      }
      case 'todos':
        return prefixLines(renderTodoList(item.items, ctx.width - 2), '  ');
      case 'lines':
        return item.lines;
    }
  })();
  return item.kind === 'code' && item.joined ? body : ['', ...body];
}
