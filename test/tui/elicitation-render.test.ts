// The form's lines: what a narrow terminal keeps in view, and how much of a server's text is laid out.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { elicitationLines } from '../../src/tui/render/elicitation-form.ts';
import { setColorLevel } from '../../src/tui/render/theme.ts';
import { openForm, step } from '../../src/tui/state/elicitation-form.ts';
import type { ElicitationRequest } from '../../src/tui/views.ts';

beforeEach(() => setColorLevel(0));
afterEach(() => setColorLevel(0));

const instruments: ElicitationRequest = {
  server: 'band',
  message: 'Pick instruments',
  requestedSchema: { type: 'object', properties: { play: { type: 'array', title: 'Plays', items: { type: 'string', enum: ['Guitar', 'Piano', 'Violin', 'Drums'] } } } },
};

describe('elicitation form lines', () => {
  test('a narrow multi-select keeps the highlighted option in view', () => {
    const form = step(step(step(openForm(instruments), 1), 1), 1);
    const line = elicitationLines(form, 0, 36, 20).find((l) => l.startsWith('❯ Plays'));
    expect(line).toBe('❯ Plays  … [ ] Violin  [ ] Drums');
  });

  test('the header, message, fields and keys; a long message is cut to six rows', () => {
    const lines = elicitationLines(openForm({ ...instruments, message: Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') }), 1, 100, 30);
    expect(lines.slice(0, 9)).toEqual(['─'.repeat(100), 'MCP server band asks · 1 more waiting', '  line 0', '  line 1', '  line 2', '  line 3', '  line 4', '  …', '']);
    expect(lines.at(-1)).toBe('Enter to submit · ↑/↓ to move · ←/→ or Space to choose · Esc to decline · Ctrl-C to cancel');
  });

  test("a server's megabyte of message is cut before it is laid out", () => {
    const started = performance.now();
    const lines = elicitationLines(openForm({ ...instruments, message: 'word '.repeat(200_000) }), 0, 80, 30);
    expect(performance.now() - started).toBeLessThan(500);
    expect(lines.length).toBeLessThanOrEqual(30);
  });
});
