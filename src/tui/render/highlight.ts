/**
 * Syntax highlighting for fenced code blocks: highlight.js (the ~37 common
 * languages) turned into ANSI colours. highlight.js emits HTML spans; they
 * are converted here line by line, re-opening the enclosing spans on every
 * line so that each line stands alone (the live tail shows only the last
 * lines of a block, and Ink may draw any line on its own).
 */
import type { HLJSApi } from 'highlight.js';

/**
 * highlight.js builds its ~37 language grammars when it is loaded. Nothing
 * needs it before the first code block, so it is required on first use
 * (synchronously: rendering is sync); imported statically, it delayed the
 * TUI's first frame by 13 ms wall, 11 ms CPU (scripts/bench/seam-paths.ts,
 * 20 runs, load ~5).
 */
let loaded: HLJSApi | undefined;
function hljs(): HLJSApi {
  loaded ??= require('highlight.js/lib/common') as HLJSApi;
  return loaded;
}
import { c } from './theme.ts';

type Paint = (s: string) => string;

function paintFor(scope: string): Paint | undefined {
  const k = c();
  const base = scope.replace(/^hljs-/, '').split(/[ .]/)[0] ?? '';
  switch (base) {
    case 'keyword':
    case 'selector-tag':
    case 'doctag':
      return k.magenta;
    case 'built_in':
    case 'type':
    case 'class':
    case 'title':
      return k.cyan;
    case 'string':
    case 'regexp':
    case 'addition':
    case 'symbol':
      return k.green;
    case 'number':
    case 'literal':
      return k.yellow;
    case 'comment':
    case 'quote':
      return k.gray;
    case 'meta':
    case 'attr':
    case 'attribute':
    case 'property':
    case 'variable':
    case 'template-variable':
    case 'params':
      return k.blue;
    case 'deletion':
      return k.red;
    case 'section':
    case 'name':
    case 'selector-id':
    case 'selector-class':
      return k.yellow;
    default:
      return undefined;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'", nbsp: ' ' };

function decode(s: string): string {
  return s.replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_, e: string) => ENTITIES[e] ?? _);
}

const ALIASES: Record<string, string> = { sh: 'bash', zsh: 'bash', shell: 'bash', console: 'bash', tsx: 'typescript', jsx: 'javascript', yml: 'yaml', rs: 'rust', py: 'python', golang: 'go', html: 'xml' };

export function knownLanguage(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.toLowerCase().trim().split(/\s+/)[0] ?? '';
  const name = ALIASES[l] ?? l;
  return hljs().getLanguage(name) ? name : undefined;
}

/** Highlighted lines of `code`; unknown languages come back uncoloured (no guessing: it is slow and often wrong). */
export function highlightLines(code: string, lang: string | undefined): string[] {
  const language = knownLanguage(lang);
  if (!language || c().level === 0) return code.split('\n');
  let html: string;
  try {
    html = hljs().highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return code.split('\n');
  }
  const lines: string[] = [];
  const stack: (Paint | undefined)[] = [];
  let line = '';
  const paint = (text: string): string => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const p = stack[i];
      if (p) return p(text);
    }
    return text;
  };
  const re = /<span class="([^"]*)">|<\/span>|([^<]+)/g;
  for (const m of html.matchAll(re)) {
    if (m[1] !== undefined) stack.push(paintFor(m[1]));
    else if (m[0] === '</span>') stack.pop();
    else if (m[2] !== undefined) {
      const parts = decode(m[2]).split('\n');
      parts.forEach((part, i) => {
        if (i > 0) {
          lines.push(line);
          line = '';
        }
        if (part) line += paint(part);
      });
    }
  }
  lines.push(line);
  return lines;
}
