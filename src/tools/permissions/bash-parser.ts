/** The bash grammar (tree-sitter-bash, WebAssembly), loaded on first use, and its syntax tree as plain objects. */
import type { Parser, TreeCursor } from 'web-tree-sitter';
import { readEmbedded } from '../../sandbox/index.ts';
// `bun build --compile` embeds both files in dist/moat, compressed (scripts/build.ts); these are their paths (in $bunfs there).
import runtimeWasm from 'web-tree-sitter/web-tree-sitter.wasm' with { type: 'file' };
import bashWasm from 'tree-sitter-bash/tree-sitter-bash.wasm' with { type: 'file' };

/**
 * One node of the syntax tree. `type` is the grammar's node kind (`command`,
 * `word`, `pipeline`, `ERROR`, …) or, for an unnamed node, the token itself
 * (`&&`, `|`, `<<`).
 */
export interface SyntaxNode {
  type: string;
  named: boolean;
  /** The node's role in its parent (`name`, `argument`, `redirect`, `body`, …), or null. */
  field: string | null;
  text: string;
  /** Offsets of `text` in the line (UTF-16 code units). */
  start: number;
  end: number;
  children: SyntaxNode[];
}

export interface ParsedShell {
  root: SyntaxNode;
  /** The parser had to recover from a syntax error (an unclosed quote, a missing `fi`, …). */
  hasError: boolean;
  /**
   * Text outside every leaf of the tree other than blanks and line
   * continuations: the grammar dropped it without saying so (it does, for the
   * `-` in `cat - <<EOF`). Offsets into the line.
   */
  skipped: { start: number; end: number }[];
}

/**
 * Deeper nesting than any real command; past it the tree is cut and marked as
 * an error, so a crafted line cannot overflow the stack of the copy or of the
 * readers that walk it.
 */
const MAX_DEPTH = 256;

let parser: Parser | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the grammar (about 1.5 MB of WebAssembly, ~0.1 s) once; later calls
 * return the same promise. Start-up does not pay for it: it runs on the first
 * Bash permission check.
 */
export function loadShellParser(): Promise<void> {
  loading ??= (async () => {
    // Loaded on first use: with the other readers' libraries (unpdf, image-size, music-metadata, node-html-markdown, web-tree-sitter) up front, -p read-then-answer's peak RSS is 58.7 MB, not 54.8 (bound 55 MB; startup bench, n=20).
    const { Parser: TreeSitter, Language } = await import('web-tree-sitter');
    // The runtime is handed its bytes: inside the executable there is no file next to the script to fetch.
    await TreeSitter.init({ wasmBinary: readEmbedded(runtimeWasm) });
    const bash = await Language.load(readEmbedded(bashWasm));
    const p = new TreeSitter();
    p.setLanguage(bash);
    parser = p;
  })();
  return loading;
}

function copy(cursor: TreeCursor, line: string, depth: number, cut: { hit: boolean }): SyntaxNode {
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  const node: SyntaxNode = {
    type: cursor.nodeIsMissing ? 'MISSING' : cursor.nodeType,
    named: cursor.nodeIsNamed,
    field: cursor.currentFieldName,
    text: line.slice(start, end),
    start,
    end,
    children: [],
  };
  if (depth >= MAX_DEPTH) {
    cut.hit = true;
    return { ...node, type: 'ERROR', named: true };
  }
  if (cursor.gotoFirstChild()) {
    do node.children.push(copy(cursor, line, depth + 1, cut));
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  return node;
}

/** Stretches of the line that no leaf covers and that hold more than blanks and backslash-newlines. */
function skippedText(root: SyntaxNode, line: string): { start: number; end: number }[] {
  const leaves: SyntaxNode[] = [];
  const collect = (n: SyntaxNode): void => {
    if (n.children.length === 0) leaves.push(n);
    else for (const c of n.children) collect(c);
  };
  collect(root);
  const gaps: { start: number; end: number }[] = [];
  let at = 0;
  const gap = (start: number, end: number): void => {
    if (end > start && /[^\s\\]|\\[^\n]/.test(line.slice(start, end).replace(/\\\r?\n/g, ''))) gaps.push({ start, end });
  };
  for (const leaf of leaves) {
    gap(at, leaf.start);
    at = Math.max(at, leaf.end);
  }
  gap(at, line.length);
  return gaps;
}

/** Parse a command line. Synchronous; the grammar must have been loaded (loadShellParser). */
export function parseShell(line: string): ParsedShell {
  if (parser === undefined) {
    throw new Error('the bash parser is not loaded yet: decide through decidePermission, which loads it');
  }
  const tree = parser.parse(line);
  if (tree === null) throw new Error('the bash parser returned no tree');
  try {
    const cursor = tree.walk();
    const cut = { hit: false };
    const root = copy(cursor, line, 0, cut);
    cursor.delete();
    return { root, hasError: tree.rootNode.hasError || cut.hit, skipped: skippedText(root, line) };
  } finally {
    // The tree lives in the WebAssembly heap, outside the garbage collector's reach.
    tree.delete();
  }
}
