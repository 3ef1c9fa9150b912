/** `/rewind` and Esc Esc in the TUI: the list of user messages, what to put back, the fork in the transcript, asking twice. */
import { afterEach, expect, test } from 'bun:test';
import { KEYS, start, unmountAll } from './harness.tsx';

afterEach(() => unmountAll());

const POINTS = [
  { index: 1, turn: 1, text: 'fix the parser', summary: 'parser.ts +3 -1' },
  { index: 2, turn: 3, text: 'and the tests', summary: 'no file changes' },
];

test('Esc Esc on an empty prompt opens the list; choosing rewinds code and conversation and shows the fork', async () => {
  let controller: { rewinds: unknown[] } | undefined;
  const h = start((c) => {
    c.points = POINTS;
    controller = c;
  });
  await h.until('Ask moat');
  await h.press(KEYS.esc);
  await h.press(KEYS.esc);
  await h.until('Rewind to just before which message?');
  expect(h.frame()).toContain('1. fix the parser');
  expect(h.frame()).toContain('parser.ts +3 -1');
  await h.press(KEYS.down);
  await h.press(KEYS.enter);
  await h.until('Rewind to before message 2: what?');
  await h.press(KEYS.enter);
  await h.until('the old branch is session branch-s');
  expect(h.frame()).toContain('Files put back to before message 2:');
  expect(h.frame()).toContain('restore   a.txt');
  expect(controller?.rewinds).toEqual([{ checkpointId: 'turn-3', code: true, conversation: true }]);
});

test('a refusal over a file changed outside moat asks once more; yes forces it', async () => {
  let controller: { rewinds: unknown[] } | undefined;
  const h = start((c) => {
    c.points = POINTS;
    c.refuseUnlessForced = true;
    controller = c;
  });
  await h.until('Ask moat');
  await h.type('/rewind');
  await h.press(KEYS.enter);
  await h.until('Rewind to just before which message?');
  await h.press(KEYS.enter);
  await h.until('what?');
  await h.press(KEYS.down);
  await h.press(KEYS.down);
  await h.press(KEYS.enter);
  await h.until('Overwrite the files changed outside moat?');
  expect(h.frame()).toContain('a file was changed outside moat since the checkpoint (a.txt)');
  await h.press(KEYS.enter);
  await h.until('Files put back to before message 1:');
  expect(controller?.rewinds).toEqual([
    { checkpointId: 'turn-1', code: true, conversation: false },
    { checkpointId: 'turn-1', code: true, conversation: false, force: true },
  ]);
});

test('one Esc on an empty prompt does nothing; nothing to rewind is said', async () => {
  const h = start();
  await h.until('Ask moat');
  await h.press(KEYS.esc);
  expect(h.frame()).not.toContain('Rewind');
  await h.press(KEYS.esc);
  await h.until('Nothing to rewind yet');
});
