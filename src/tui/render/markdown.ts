/**
 * Markdown to styled terminal lines, from marked's lexer tokens. Output is a
 * list of lines no wider than `width`, so callers know the exact height (the
 * live tail is clamped by line count) and blocks rendered separately join
 * exactly as they would inside the whole message.
 */
import type { Lexer, Token, Tokens } from 'marked';
import { highlightLines } from './highlight.ts';
import { c, GLYPH } from './theme.ts';
import { prefixLines, stringWidth, wrapHard, wrapText } from './wrap.ts';

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

function decodeEntities(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (m, e: string) => ENTITY[e] ?? m);
}

/**
 * marked is required on the first text to render (synchronously: rendering is sync), as highlight.js is:
 * the first frame shows no markdown, and evaluating marked costs it ~2 ms.
 */
let lexer: typeof Lexer | undefined;

export function lex(src: string): Token[] {
  lexer ??= (require('marked') as typeof import('marked')).Lexer;
  return lexer.lex(src);
}

/** Inline tokens to one styled string (may contain newlines from hard breaks). */
export function renderInline(tokens: Token[] | undefined): string {
  if (!tokens) return '';
  const k = c();
  let out = '';
  for (const t of tokens) {
    switch (t.type) {
      case 'text': {
        const tt = t as Tokens.Text;
        out += tt.tokens && tt.tokens.length > 0 ? renderInline(tt.tokens) : decodeEntities(tt.text);
        break;
      }
      case 'strong':
        out += k.bold(renderInline((t as Tokens.Strong).tokens));
        break;
      case 'em':
        out += k.italic(renderInline((t as Tokens.Em).tokens));
        break;
      case 'del':
        out += k.strikethrough(renderInline((t as Tokens.Del).tokens));
        break;
      case 'codespan':
        out += k.cyan(decodeEntities((t as Tokens.Codespan).text));
        break;
      case 'link': {
        const l = t as Tokens.Link;
        const text = renderInline(l.tokens);
        const plain = l.text;
        out += plain === l.href || `mailto:${plain}` === l.href ? k.blue.underline(text) : `${k.blue.underline(text)}${k.dim(` (${l.href})`)}`;
        break;
      }
      case 'image': {
        const im = t as Tokens.Image;
        out += k.dim(`[image: ${im.text || im.href}]`);
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'escape':
        out += (t as Tokens.Escape).text;
        break;
      case 'html':
        out += (t as Tokens.HTML).text.replace(/<br\s*\/?>/gi, '\n');
        break;
      default:
        out += 'raw' in t && typeof t.raw === 'string' ? t.raw : '';
    }
  }
  return out;
}

/** Whether a token draws anything (space and link definitions do not). */
export function isVisible(t: Token): boolean {
  return t.type !== 'space' && t.type !== 'def';
}

/** One block token to lines. */
export function renderBlock(t: Token, width: number): string[] {
  const k = c();
  switch (t.type) {
    case 'heading': {
      const h = t as Tokens.Heading;
      const text = renderInline(h.tokens);
      const styled = h.depth === 1 ? k.bold.underline(text) : h.depth === 2 ? k.bold(text) : k.bold.dim(text);
      return wrapText(styled, width);
    }
    case 'paragraph':
      return wrapText(renderInline((t as Tokens.Paragraph).tokens), width);
    case 'text': {
      const tt = t as Tokens.Text;
      return wrapText(tt.tokens ? renderInline(tt.tokens) : decodeEntities(tt.text), width);
    }
    case 'code':
      return renderCode(t as Tokens.Code, width);
    case 'list':
      return renderList(t as Tokens.List, width);
    case 'blockquote': {
      const inner = renderBlocks((t as Tokens.Blockquote).tokens, width - 2);
      return inner.map((l) => `${k.gray(GLYPH.quote)} ${k.italic(l)}`);
    }
    case 'table':
      return renderTable(t as Tokens.Table, width);
    case 'hr':
      return [k.dim('─'.repeat(Math.min(width, 60)))];
    case 'html':
      return wrapText(k.dim((t as Tokens.HTML).text.trimEnd()), width);
    case 'space':
    case 'def':
      return [];
    default:
      return 'raw' in t && typeof t.raw === 'string' ? wrapText(t.raw.trimEnd(), width) : [];
  }
}

/** Several blocks, with one blank line between visible blocks (as in the source). */
export function renderBlocks(tokens: Token[], width: number, loose = true): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (!isVisible(t)) continue;
    const lines = renderBlock(t, width);
    if (lines.length === 0) continue;
    if (out.length > 0 && loose) out.push('');
    out.push(...lines);
  }
  return out;
}

export function renderMarkdown(src: string, width: number): string[] {
  return renderBlocks(lex(src), width);
}

function renderCode(code: Tokens.Code, width: number, onlyLast?: number): string[] {
  let text = code.text;
  // While streaming, a long block is drawn from its last lines only (highlighting the rest is wasted work).
  let skipped = 0;
  if (onlyLast !== undefined) {
    const all = text.split('\n');
    if (all.length > onlyLast) {
      skipped = all.length - onlyLast;
      text = all.slice(skipped).join('\n');
    }
  }
  const lines = highlightLines(text, code.lang).flatMap((l) => wrapHard(l, width));
  if (skipped > 0) lines.unshift(c().dim(`${GLYPH.ellipsis} ${skipped} more lines above`));
  return lines;
}

/** The code block as the live tail draws it: only its last `rows` source lines are highlighted. */
export function renderCodeTail(code: Tokens.Code, width: number, rows: number): string[] {
  return renderCode(code, width, rows);
}

function renderList(list: Tokens.List, width: number): string[] {
  const k = c();
  const out: string[] = [];
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((item, i) => {
    if (item.task) return item.checked ? k.green(GLYPH.todoDone) : GLYPH.todoOpen;
    return list.ordered ? `${start + i}.` : '•';
  });
  const markerWidth = Math.max(...markers.map((m) => stringWidth(m)));
  list.items.forEach((item, i) => {
    const marker = markers[i] ?? '•';
    const pad = ' '.repeat(markerWidth - stringWidth(marker));
    const indent = ' '.repeat(markerWidth + 1);
    // Items hold block tokens; a task item's checkbox is already drawn as the marker.
    const body = renderBlocks(item.tokens.filter((t) => t.type !== 'checkbox'), width - markerWidth - 1, list.loose);
    const lines = body.length > 0 ? body : [''];
    if (list.loose && i > 0) out.push('');
    out.push(...prefixLines(lines, `${marker}${pad} `, indent));
  });
  return out;
}

function renderTable(table: Tokens.Table, width: number): string[] {
  const k = c();
  const header = table.header.map((cell) => renderInline(cell.tokens));
  const rows = table.rows.map((r) => r.map((cell) => renderInline(cell.tokens)));
  const cols = header.length;
  const natural = Array.from({ length: cols }, (_, i) =>
    Math.max(3, stringWidth(header[i] ?? ''), ...rows.map((r) => stringWidth(r[i] ?? ''))),
  );
  // Borders take 3 columns per cell plus one; shrink the widest columns until the table fits.
  const budget = Math.max(cols * 3, width - (cols * 3 + 1));
  const widths = [...natural];
  while (widths.reduce((a, b) => a + b, 0) > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 3) break;
    widths[widest] = (widths[widest] ?? 4) - 1;
  }
  const align = (s: string, w: number, a: string | null): string => {
    const gap = Math.max(0, w - stringWidth(s));
    if (a === 'right') return ' '.repeat(gap) + s;
    if (a === 'center') return ' '.repeat(Math.floor(gap / 2)) + s + ' '.repeat(gap - Math.floor(gap / 2));
    return s + ' '.repeat(gap);
  };
  const renderRow = (cells: string[], style: (s: string) => string): string[] => {
    const wrapped = widths.map((w, i) => wrapText(cells[i] ?? '', w));
    const height = Math.max(...wrapped.map((w) => w.length));
    const lines: string[] = [];
    for (let line = 0; line < height; line++) {
      const parts = widths.map((w, i) => style(align(wrapped[i]?.[line] ?? '', w, table.align[i] ?? null)));
      lines.push(`${k.dim('│')} ${parts.join(` ${k.dim('│')} `)} ${k.dim('│')}`);
    }
    return lines;
  };
  const rule = (l: string, m: string, r: string) => k.dim(l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r);
  return [
    rule('┌', '┬', '┐'),
    ...renderRow(header, (s) => k.bold(s)),
    rule('├', '┼', '┤'),
    ...rows.flatMap((r) => renderRow(r, (s) => s)),
    rule('└', '┴', '┘'),
  ];
}
