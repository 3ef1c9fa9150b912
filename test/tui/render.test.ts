import { beforeAll, describe, expect, test } from 'bun:test';
import { renderDiff } from '../../src/tui/render/diff.ts';
import { renderMarkdown } from '../../src/tui/render/markdown.ts';
import { renderLiveTail } from '../../src/tui/render/live-tail.ts';
import { highlightLines } from '../../src/tui/render/highlight.ts';
import { setColorLevel } from '../../src/tui/render/theme.ts';
import { renderToolCard } from '../../src/tui/render/tool-card.ts';
import { finishedPrefix } from '../../src/tui/state/split-blocks.ts';
import type { ToolCallView } from '../../src/tui/state/types.ts';
import { stringWidth } from '../../src/tui/render/wrap.ts';

beforeAll(() => setColorLevel(0));

const MD = `# Heading one

## Heading two

A paragraph with **bold**, *italic*, ~~struck~~, \`inline code\` and a [link](https://example.com).

> A quote
> on two lines

- first
- second
  - nested
- [x] done task
- [ ] open task

1. one
2. two

| Name | Count |
|:-----|------:|
| apples | 3 |
| pears | 12 |

\`\`\`ts
const x: number = 1;
\`\`\`

---
`;

describe('markdown', () => {
  test('every block kind renders', () => {
    expect(renderMarkdown(MD, 60).join('\n')).toMatchSnapshot();
  });

  test('lines never exceed the width', () => {
    const long = `${'word '.repeat(80)}\n\n\`\`\`\n${'x'.repeat(150)}\n\`\`\`\n\n| a | b |\n|---|---|\n| ${'long cell '.repeat(10)} | y |`;
    for (const width of [20, 40, 80]) {
      for (const line of renderMarkdown(long, width)) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    }
  });

  test('blocks rendered separately join like the whole message', () => {
    const text = 'Para one.\n\nPara two\nstill two.\n\n- a\n- b\n\n```js\nx()\n```\n\nEnd.';
    const whole = renderMarkdown(text, 50);
    const cut = finishedPrefix(text);
    expect(cut).toBeGreaterThan(0);
    const parts = [...renderMarkdown(text.slice(0, cut), 50), '', ...renderMarkdown(text.slice(cut), 50)];
    expect(parts).toEqual(whole);
  });

  test('an open code fence is not finished; a closed one is', () => {
    expect(finishedPrefix('Intro.\n\n```ts\nconst a = 1;\n')).toBe('Intro.\n\n'.length);
    const closed = 'Intro.\n\n```ts\nconst a = 1;\n```\n\nAfter';
    expect(closed.slice(0, finishedPrefix(closed))).toBe('Intro.\n\n```ts\nconst a = 1;\n```\n\n');
  });

  test('syntax highlighting colours keywords and strings', () => {
    setColorLevel(1);
    try {
      const [line] = highlightLines('const s = "hi";', 'typescript');
      expect(line).toContain('\x1b[35mconst\x1b[39m');
      expect(line).toContain('\x1b[32m"hi"\x1b[39m');
      // Multi-line tokens are re-opened on every line.
      const lines = highlightLines('/* a\nb */', 'js');
      expect(lines[1]).toStartWith('\x1b[90m');
    } finally {
      setColorLevel(0);
    }
  });
});

describe('live tail', () => {
  test('is clamped to the rows it is given, code keeping its last lines', () => {
    const code = `\`\`\`py\n${Array.from({ length: 250 }, (_, i) => `line_${i} = ${i}`).join('\n')}\n`;
    const lines = renderLiveTail(code, 80, 10);
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines.at(-1)).toBe('line_249 = 249');
    expect(lines[0]).toContain('more lines above');
  });

  test('a long paragraph is clamped too', () => {
    const lines = renderLiveTail(`${'word '.repeat(2000)}`, 40, 6);
    expect(lines.length).toBe(6);
  });
});

const PATCH = `--- src/app.ts
+++ src/app.ts
@@ -10,4 +10,5 @@
 function main() {
-  run(1);
+  run(2);
+  log();
 }
@@ -40,2 +41,2 @@
-old
+new
`;
/** PATCH's hunks, as the tools give them beside the patch (the renderer reads the patch). */
const PATCH_HUNKS = [
  { oldStart: 10, oldLines: 4, newStart: 10, newLines: 5, lines: [' function main() {', '-  run(1);', '+  run(2);', '+  log();', ' }'] },
  { oldStart: 40, oldLines: 2, newStart: 41, newLines: 2, lines: ['-old', '+new'] },
];

describe('diff', () => {
  test('shows line numbers and both hunks', () => {
    expect(renderDiff(PATCH, 60).join('\n')).toMatchSnapshot();
  });
  test('is capped with a count of what is left', () => {
    const lines = renderDiff(PATCH, 60, 4);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toContain('more lines');
  });
});

const base: ToolCallView = { id: 't1', name: 'Bash', json: '', status: 'streaming' };
const opts = { width: 80, cwd: '/work/project', now: 10_000 };

describe('tool cards', () => {
  const states: [string, ToolCallView][] = [
    ['streaming partial input', { ...base, json: '{"command":"npm test","desc' }],
    ['waiting for approval', { ...base, input: { command: 'npm test' }, status: 'waiting' }],
    ['running with output', { ...base, input: { command: 'npm test' }, status: 'running', startedAt: 8_800, display: { type: 'command', command: 'npm test', exitCode: null, durationMs: 0, output: 'a\nb\nc\nd\ne\nf\ng\n' } }],
    ['done', { ...base, input: { command: 'npm test' }, status: 'done', durationMs: 1200, display: { type: 'command', command: 'npm test', exitCode: 0, durationMs: 1200, output: 'ok\n' } }],
    ['error', { ...base, input: { command: 'false' }, status: 'error', content: 'Command failed with exit code 1\nmore' , display: { type: 'command', command: 'false', exitCode: 1, durationMs: 30, output: '' } }],
    ['aborted', { ...base, input: { command: 'sleep 9' }, status: 'aborted' }],
    ['denied', { ...base, input: { command: 'rm -rf /' }, status: 'denied', content: 'The user denied this bash call.' }],
    ['Read', { id: 't2', name: 'Read', json: '', input: { file_path: '/work/project/src/app.ts' }, status: 'done', display: { type: 'file_read', path: '/work/project/src/app.ts', startLine: 1, lines: 120, totalLines: 120 } }],
    ['edit with diff', { id: 't3', name: 'Edit', json: '', input: { file_path: '/work/project/src/app.ts' }, status: 'done', display: { type: 'diff', path: '/work/project/src/app.ts', patch: PATCH, hunks: PATCH_HUNKS, added: 3, removed: 2, created: false } }],
    ['Grep', { id: 't4', name: 'Grep', json: '', input: { pattern: 'TODO', path: '/work/project/src' }, status: 'done', display: { type: 'matches', count: 7, truncated: false } }],
  ];
  for (const [name, call] of states) {
    test(name, () => {
      expect(renderToolCard(call, opts).join('\n')).toMatchSnapshot();
    });
  }

  test("a running MCP tool's progress shows on its card", () => {
    const call: ToolCallView = { id: 'm', name: 'mcp__ev__trigger-long-running-operation', json: '', input: { duration: 6 }, status: 'running', startedAt: 8_000, display: { type: 'text', text: '17% · step 1 of 6' } };
    const lines = renderToolCard(call, opts);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('17% · step 1 of 6');
  });

  test('the path shows before the input is complete', () => {
    const lines = renderToolCard({ id: 'x', name: 'Read', json: '{"file_path":"/work/project/src/a.ts","off', status: 'streaming' }, opts);
    expect(lines[0]).toContain('Read(src/a.ts)');
  });

  test('expanded shows the full output', () => {
    const call: ToolCallView = { ...base, input: { command: 'ls' }, status: 'done', display: { type: 'command', command: 'ls', exitCode: 0, durationMs: 5, output: 'one\ntwo\nthree\n' } };
    expect(renderToolCard(call, opts).join('\n')).not.toContain('three');
    expect(renderToolCard(call, { ...opts, expanded: true }).join('\n')).toContain('three');
  });
});
