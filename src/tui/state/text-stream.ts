/**
 * The streaming text block of the live cell, and when its finished parts move
 * into scrollback: at once. Every finished markdown block and every complete
 * line of a code block is committed on the flush that completes it, so the
 * live cell holds only the block still growing (a code block: its last,
 * partial line).
 *
 * Why not keep finished text live and commit it in batches: each move into
 * `<Static>` makes Ink erase the dynamic frame and draw it again, and text that
 * was shown live is written a second time when it is printed. Measured on the
 * 20 KB benchmark (scripts/bench/tui-stream-profile.tsx), batching a screenful
 * at a time wrote 3.4x the text, committing at once with a small frame 2.4x.
 * What keeps a commit cheap is a small frame, not few commits: the bottom area
 * shrinks while the model works (components/layout.ts).
 *
 * While a code block streams, `text` holds only its fence line and the lines
 * not yet committed, so each flush looks at a few lines, not the whole block.
 */
import { finishedPrefix, openCodeBlock, splitLeadingCode } from './split-blocks.ts';
import type { StaticItemInput } from './types.ts';

export interface LiveText {
  /** The uncommitted markdown of the current text block. */
  text: string;
  /** Whether this assistant message already has committed text (the bullet goes on its first chunk). */
  messageStarted: boolean;
  /** Lines of the streaming code block already committed (the live cell then joins them without a gap). */
  codeLinesCommitted: number;
  /** While `text` is an open code fence: its uncommitted lines (drawn without lexing again). */
  codeTail?: { lang: string; lines: string[] };
}

const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,})[^\n]*\n/;
/**
 * Lines of the block already committed that a new chunk is highlighted with:
 * enough for most multi-line comments and strings, bounded so a long block
 * does not cost a full re-highlight per flush.
 */
const CONTEXT_LINES = 20;

export class TextStream {
  /** Lines of the open code block at the start of the text already committed. */
  private codeCommitted = 0;
  /** The last of those lines, for highlighting the next chunk (CONTEXT_LINES). */
  private codeContext: string[] = [];

  constructor(private readonly commit: (item: StaticItemInput) => void) {}

  /** Streamed text arrived: returns the live text after committing what is due. */
  append(live: LiveText, added: string): LiveText {
    return this.settle(live.text + added, live.messageStarted);
  }

  /** The text block ended: everything left is final and goes to scrollback. */
  finish(live: LiveText): LiveText {
    const settled = this.settle(live.text, live.messageStarted);
    let { text, messageStarted } = settled;
    if (text.trim()) {
      const open = openCodeBlock(text);
      if (open && this.codeCommitted > 0) {
        const lines = open.lines[open.lines.length - 1] === '' ? open.lines.slice(0, -1) : open.lines;
        if (lines.length > 0) this.commitCode(open.lang, lines, false);
      } else this.commitMarkdown(text, messageStarted);
      messageStarted = true;
    }
    text = '';
    this.codeCommitted = 0;
    this.codeContext = [];
    return { text, messageStarted, codeLinesCommitted: 0, codeTail: undefined };
  }

  /** A retried attempt: its text is discarded. */
  reset(): void {
    this.codeCommitted = 0;
    this.codeContext = [];
  }

  private settle(source: string, started: boolean): LiveText {
    let text = source;
    let messageStarted = started;
    for (;;) {
      const lead = FENCE_LINE.test(text) ? splitLeadingCode(text) : undefined;
      if (lead?.closed) {
        // A finished code block goes to scrollback at once: there it is highlighted.
        const rest = lead.rest.replace(/^[ \t]*\n/, '');
        if (this.codeCommitted === 0) this.commitMarkdown(text.slice(0, text.length - rest.length), messageStarted);
        else {
          const lines = lead.code.split('\n');
          if (lead.code !== '') this.commitCode(lead.lang, lines, false);
        }
        this.codeCommitted = 0;
        this.codeContext = [];
        messageStarted = true;
        text = rest;
        continue;
      }
      const open = lead ? openCodeBlock(text) : undefined;
      if (open) {
        const complete = open.lines.length - 1; // the last line may still grow
        if (complete > 0) {
          const first = !messageStarted && this.codeCommitted === 0;
          this.commitCode(open.lang, open.lines.slice(0, complete), first);
          messageStarted = true;
          text = (FENCE_LINE.exec(text)?.[0] ?? '```\n') + (open.lines[complete] ?? '');
        }
        return { text, messageStarted, codeLinesCommitted: this.codeCommitted, codeTail: { lang: open.lang, lines: open.lines.slice(complete) } };
      }
      const cut = finishedPrefix(text);
      if (cut > 0) {
        this.commitMarkdown(text.slice(0, cut), messageStarted);
        messageStarted = true;
        text = text.slice(cut);
        continue;
      }
      return { text, messageStarted, codeLinesCommitted: 0, codeTail: undefined };
    }
  }

  /** Lines of the open code block: joined to the ones before it, highlighted with them as context. */
  private commitCode(lang: string, lines: string[], first: boolean): void {
    const joined = this.codeCommitted > 0;
    const context = this.codeContext.length > 0 ? { context: this.codeContext.join('\n') } : {};
    this.commit({ kind: 'code', lang, text: lines.join('\n'), first, joined, ...context });
    this.codeCommitted += lines.length;
    this.codeContext = [...this.codeContext, ...lines].slice(-CONTEXT_LINES);
  }

  private commitMarkdown(text: string, messageStarted: boolean): void {
    const trimmed = text.replace(/\s+$/, '').replace(/^\n+/, '');
    if (trimmed) this.commit({ kind: 'markdown', text: trimmed, first: !messageStarted });
  }
}
