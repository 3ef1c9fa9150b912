/**
 * Renders the real App around a FakeClient with ink-testing-library and
 * polls frames (never fixed sleeps: renders are asynchronous).
 */
import { render } from 'ink-testing-library';
import { AppModel } from '../../src/tui/app-model.ts';
import { App } from '../../src/tui/app.tsx';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap.ts';
import { FakeClient } from './fake-client.ts';

export const KEYS = {
  enter: '\r',
  esc: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlA: '\x01',
  ctrlE: '\x05',
  ctrlW: '\x17',
  ctrlU: '\x15',
  ctrlK: '\x0b',
  ctrlO: '\x0f',
  altB: '\x1bb',
  altF: '\x1bf',
  altEnter: '\x1b\r',
  shiftTab: '\x1b[Z',
  tab: '\t',
  backspace: '\x7f',
} as const;

export async function waitFor(fn: () => boolean, what = 'condition', timeoutMs = 3000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!fn()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

export function setup(configure?: (c: FakeClient) => void) {
  const controller = new FakeClient();
  configure?.(controller);
  let exited = 0;
  const app = new AppModel({ client: controller, keymap: DEFAULT_KEYMAP, exit: () => exited++, flushMs: 5 });
  app.start();
  const errors: Error[] = [];
  const r = render(<App app={app} onError={(e) => errors.push(e)} />);
  const frame = () => r.lastFrame() ?? '';
  return {
    controller,
    app,
    errors,
    ...r,
    frame,
    exited: () => exited,
    /** Types text and waits until the prompt shows it. */
    async type(text: string) {
      r.stdin.write(text);
      await waitFor(() => app.ui.get().editor.value.endsWith(text), `typed ${JSON.stringify(text)}`);
    },
    async press(key: string) {
      r.stdin.write(key);
      // Ink reads and handles a key within the write ('readable' is emitted synchronously): no pacing is needed,
      // and a key it left unread is a failure here rather than a race later.
      if ((r.stdin as unknown as { data: string | null }).data !== null) throw new Error(`Ink did not read the key ${JSON.stringify(key)}`);
      // A lone ESC is the exception: Ink holds it (20 ms) to tell it from the start of a sequence, then handles it.
      if (key === KEYS.esc) await Bun.sleep(40);
    },
    async until(text: string | RegExp, timeoutMs = 3000) {
      await waitFor(() => (typeof text === 'string' ? frame().includes(text) : text.test(frame())), `frame to show ${String(text)}`, timeoutMs);
    },
  };
}

const mounted: (() => void)[] = [];

/** `setup`, remembered so that `unmountAll` (each file's afterEach) tears it down. */
export function start(configure?: (c: FakeClient) => void) {
  const h = setup(configure);
  mounted.push(h.unmount);
  return h;
}

export function unmountAll(): void {
  for (const unmount of mounted.splice(0)) unmount();
}
