/**
 * What streaming costs on a real (fake) terminal: Ink's own write path, not
 * ink-testing-library's debug frames. Guards issue 3's targets in-process:
 * every line printed into scrollback exactly once, the frame never as tall as
 * the terminal (Ink then clears the screen), and the bytes within 3x the text.
 * The tmux benchmark (scripts/bench/tui-stream.ts) measures the same on the
 * compiled binary.
 */
import { afterEach, expect, test } from 'bun:test';
import { setColorLevel } from '../../src/tui/render/theme.ts';
import { bottomLines } from '../../src/tui/components/layout.ts';
import { deltas, FakeClient, finished, type Step } from './fake-client.ts';
import { renderToFakeTty, splitWrites } from './fake-tty.tsx';
import { waitFor } from './harness.tsx';

let done: (() => void) | undefined;
afterEach(() => {
  done?.();
  done = undefined;
  setColorLevel(0);
});

/** About 8 KB of paragraphs, a long code block, a list and a table; every line carries a unique marker. */
function answer(): { text: string; markers: string[] } {
  const markers: string[] = [];
  const parts = ['# Report'];
  const mark = (prefix: string, i: number) => {
    const m = `${prefix}${String(i).padStart(3, '0')}`;
    markers.push(m);
    return m;
  };
  for (let i = 0; i < 15; i++) parts.push(`${mark('para', i)} has **bold** and \`code\` in a sentence that is long enough to matter.`);
  const code = Array.from({ length: 80 }, (_, i) => `const ${mark('codeline', i)} = compute(${i}, options); // step ${i}`);
  parts.push(`\`\`\`ts\n${code.join('\n')}\n\`\`\``);
  for (let i = 0; i < 6; i++) parts.push(`- ${mark('item', i)} in a list`);
  parts.push(`| name | value |\n|---|---|\n| ${mark('row', 1)} | 1 |\n| ${mark('row', 2)} | 2 |`);
  for (let i = 15; i < 25; i++) parts.push(`${mark('para', i)} closes the answer.`);
  return { text: parts.join('\n\n'), markers };
}

/** Waits for `text`'s last line to reach scrollback, after its first frame is drawn and `go` submitted. */
async function stream(text: string, rows = 30) {
  const controller = new FakeClient();
  const steps: Step[] = [{ type: 'turn_started', turn: 1 }];
  // About 1,000 tokens/s, as the benchmark: 32 characters every 8 ms.
  for (const d of deltas(text, 32)) steps.push(d, { wait: 8 });
  steps.push(finished('end_turn'));
  controller.scripts.push(steps);
  const r = renderToFakeTty(controller, { rows });
  done = r.unmount;
  await waitFor(() => r.stdout.writes.some((w) => w.includes('Ask moat')), "Ink's first frame");
  r.stdout.writes.length = 0;
  r.app.setEditor({ value: 'go', cursor: 2 });
  r.app.submit();
  await r.app.idle;
  const last = text.split('\n').at(-1) ?? '';
  await waitFor(() => splitWrites(r.stdout.writes).staticText.includes(last), 'the last line in scrollback');
  return r;
}

test('a fast answer reaches scrollback once per line, in under 3x its size, without full-screen redraws', async () => {
  setColorLevel(3);
  const { text, markers } = answer();
  const { stdout, errors } = await stream(text);
  expect(errors).toEqual([]);
  const split = splitWrites(stdout.writes);
  const counts = markers.map((m) => [m, split.staticText.split(m).length - 1]);
  expect(counts.filter(([, n]) => n !== 1)).toEqual([]);
  // A frame as tall as the terminal makes Ink clear the screen (erase display) and redraw everything.
  expect(stdout.writes.filter((w) => w.includes('\x1b[2J') || w.includes('\x1b[J'))).toEqual([]);
  expect(split.total / text.length).toBeLessThan(3);
}, 20_000);

test('while the model works the bottom area is two lines: no rule, no status line', async () => {
  const controller = new FakeClient();
  controller.scripts.push([{ type: 'turn_started', turn: 1 }, ...deltas('Hello.'), { awaitAbort: true }]);
  const r = renderToFakeTty(controller);
  done = r.unmount;
  const idle = bottomLines(r.app, 100, 30, Date.now(), 0);
  expect(idle.some((l) => l.includes('─'.repeat(20)))).toBe(true);
  expect(idle.at(-1)).toContain('claude-sonnet-4-5');
  r.app.cycleMode();
  r.app.setEditor({ value: 'go', cursor: 2 });
  r.app.submit();
  await waitFor(() => r.app.transcript.run.get().phase !== 'idle', 'the run to start');
  const busy = bottomLines(r.app, 100, 30, Date.now(), 0);
  expect(busy.filter((l) => l.trim() !== '')).toHaveLength(2);
  expect(busy.some((l) => l.includes('─'.repeat(20)))).toBe(false);
  expect(busy.join('\n')).not.toContain('claude-sonnet-4-5');
  // The permission mode stays in view on the spinner line.
  expect(busy.join('\n')).toContain('accept edits');
  r.app.interrupt();
  await r.app.idle;
});
