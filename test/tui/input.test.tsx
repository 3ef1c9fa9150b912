import { afterEach, describe, expect, test } from 'bun:test';
import { buildKeymap, chordOf, normalizeChord } from '../../src/tui/keymap.ts';
import { deltas, finished } from './fake-client.ts';
import { KEYS, start, unmountAll, waitFor } from './harness.tsx';

afterEach(unmountAll);
const value = (h: ReturnType<typeof start>) => h.app.ui.get().editor;

describe('prompt editing', () => {
  test('shell keys move and delete', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('hello big world');
    await h.press(KEYS.altB);
    await waitFor(() => value(h).cursor === 10, 'Alt-B');
    await h.press(KEYS.ctrlW);
    await waitFor(() => value(h).value === 'hello world', 'Ctrl-W');
    await h.press(KEYS.ctrlA);
    await waitFor(() => value(h).cursor === 0, 'Ctrl-A');
    await h.press(KEYS.altF);
    await waitFor(() => value(h).cursor === 5, 'Alt-F');
    await h.press(KEYS.ctrlK);
    await waitFor(() => value(h).value === 'hello', 'Ctrl-K');
    await h.press(KEYS.ctrlE);
    await h.press(KEYS.backspace);
    await waitFor(() => value(h).value === 'hell', 'Backspace');
    await h.press(KEYS.ctrlU);
    await waitFor(() => value(h).value === '', 'Ctrl-U');
  });

  test('Ctrl-J adds a line through the keymap (not as typed text)', async () => {
    const h = start((c) => c.scripts.push([finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('one');
    h.stdin.write('\n');
    await waitFor(() => value(h).value === 'one\n', 'Ctrl-J newline');
    await h.type('two');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'sent');
    expect(h.controller.prompts[0]?.text).toBe('one\ntwo');
  });

  test('Alt-Enter and a trailing backslash add lines; Enter sends all of it', async () => {
    const h = start((c) => c.scripts.push([finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('one');
    await h.press(KEYS.altEnter);
    await h.type('two\\');
    await h.press(KEYS.enter);
    await waitFor(() => value(h).value === 'one\ntwo\n', 'backslash newline');
    await h.type('three');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'sent');
    expect(h.controller.prompts[0]?.text).toBe('one\ntwo\nthree');
  });

  test('a bracketed paste arrives whole, newlines included, and is not sent', async () => {
    const h = start();
    await h.until('Ask moat');
    h.stdin.write('\x1b[200~line one\nline two\nline three\x1b[201~');
    await waitFor(() => value(h).value === 'line one\nline two\nline three', 'paste');
    expect(h.controller.prompts).toHaveLength(0);
    await h.until('line three');
  });

  test('↑/↓ walk the prompt history and restore the draft', async () => {
    const h = start((c) => {
      c.history = ['first prompt', 'second prompt'];
    });
    await h.until('Ask moat');
    await h.type('draft');
    await h.press(KEYS.up);
    await waitFor(() => value(h).value === 'second prompt', 'up 1');
    await h.press(KEYS.up);
    await waitFor(() => value(h).value === 'first prompt', 'up 2');
    await h.press(KEYS.down);
    await h.press(KEYS.down);
    await waitFor(() => value(h).value === 'draft', 'back to the draft');
  });

  test('sent prompts are added to the history', async () => {
    const h = start((c) => c.scripts.push([finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('remember me');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.history.includes('remember me'), 'history');
  });
});

describe('slash commands', () => {
  test('typing / shows matching commands; Enter runs the highlighted one', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('/he');
    await h.until('/help');
    expect(h.frame()).toMatchSnapshot();
    await h.press(KEYS.enter);
    await h.until('Commands');
    expect(h.frame()).toContain('/resume');
    expect(h.frame()).toContain('Ctrl-O');
  });

  test('an unknown command says so', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('/frobnicate');
    await h.press(KEYS.enter);
    await h.until('Unknown command /frobnicate');
  });

  test('/model opens a picker and switches', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('/model');
    await h.press(KEYS.enter);
    await h.until('Model (now claude-sonnet-4-5)');
    await h.press(KEYS.down);
    await h.press(KEYS.enter);
    await h.until('Model set to claude-opus-4-5.');
    expect(h.controller.info().model).toBe('claude-opus-4-5');
    await h.until('claude-opus-4-5 · project');
  });

  test('/resume picks a session and shows it', async () => {
    const h = start((c) => {
      c.sessions = [{ id: 'old-session-1234', title: 'Fix the parser', updatedAt: Date.now() - 3_600_000 }];
      c.resumed['old-session-1234'] = [
        { role: 'user', content: [{ type: 'text', text: 'please fix the parser' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Fixed it.' }] },
      ];
    });
    await h.until('Ask moat');
    await h.type('/resume');
    await h.press(KEYS.enter);
    await h.until('Fix the parser');
    await h.press(KEYS.enter);
    await h.until('Fixed it.');
    expect(h.frame()).toContain('> please fix the parser');
  });

  test('/cost, /tools, /permissions, /sessions, /clear print their output', async () => {
    const h = start((c) => {
      c.sessions = [{ id: 'sess-0001-aaaa', title: 'Now', updatedAt: Date.now() }];
    });
    await h.until('Ask moat');
    for (const cmd of ['/cost', '/tools', '/permissions', '/permissions allow Bash(ls:*)', '/sessions', '/clear']) {
      await h.type(cmd);
      await h.press(KEYS.enter);
      await waitFor(() => value(h).value === '', `${cmd} ran`);
    }
    await h.until('New session sess-000');
    const f = h.frame();
    expect(f).toContain('Session cost $0.0123 over 2 turns');
    expect(f).toContain('Bash');
    expect(f).toContain('Bash(npm test:*)');
    expect(f).toContain('Allowed Bash(ls:*) for this project');
    expect(h.controller.rules.map((r) => r.rule)).toContain('Bash(ls:*)');
  });

  test('/init asks the model to write AGENTS.md', async () => {
    const h = start((c) => c.scripts.push([finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('/init');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'prompt');
    expect(h.controller.prompts[0]?.text).toContain('AGENTS.md');
  });

  test('/exit exits', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('/exit');
    await h.press(KEYS.enter);
    await waitFor(() => h.exited() === 1, 'exit');
  });
});

describe('@files and !commands', () => {
  test('@ completes file names fuzzily and attaches the file', async () => {
    const h = start((c) => c.scripts.push([finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('look at @tuiapp');
    await h.until('src/tui/app.tsx');
    await h.press(KEYS.tab);
    await waitFor(() => value(h).value === 'look at @src/tui/app.tsx ', 'completed');
    await h.type('please');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'sent');
    expect(h.controller.prompts[0]?.attachments).toEqual(['src/tui/app.tsx']);
  });

  test('!command runs, shows its output, and goes to the model with the next prompt', async () => {
    const h = start((c) => c.scripts.push([...deltas('Seen.'), finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('!git status');
    await h.press(KEYS.enter);
    await h.until('ran git status');
    await h.until('exit 0 in 12 ms');
    await h.type('what changed?');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'sent');
    expect(h.controller.prompts[0]?.shellContext.map((r) => r.command)).toEqual(['git status']);
  });
});

describe('keymap', () => {
  test('config overrides replace bindings and bad entries are reported', () => {
    const { keymap, errors } = buildKeymap({ submit: 'ctrl+s', newline: ['Enter'], nonsense: 'x', expand: 'hyper+q' });
    expect(keymap.submit).toEqual(['ctrl+s']);
    expect(keymap.newline).toEqual(['enter']);
    expect(errors).toHaveLength(2);
    expect(normalizeChord('Meta+Return')).toBe('alt+enter');
  });

  test('Ink keys map to chords', () => {
    const none = { upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false };
    expect(chordOf('a', { ...none, ctrl: true })).toBe('ctrl+a');
    expect(chordOf('', { ...none, return: true, meta: true })).toBe('alt+enter');
    expect(chordOf('', { ...none, tab: true, shift: true })).toBe('shift+tab');
    expect(chordOf('A', { ...none, shift: true })).toBeUndefined();
    // Ctrl-J arrives as a bare line feed.
    expect(chordOf('\n', none)).toBe('ctrl+j');
  });
});
