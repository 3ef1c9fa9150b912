// An MCP server's question in the TUI: the form drawn, filled with keys, submitted, declined, cancelled, queued, withdrawn, and kept apart from the permission dialog.
import { afterEach, describe, expect, test } from 'bun:test';
import type { AgentEvent } from '../../src/agent/index.ts';
import type { ElicitationAnswer, ElicitationRequest } from '../../src/tui/views.ts';
import { finished } from './fake-client.ts';
import { KEYS, start, unmountAll, waitFor } from './harness.tsx';

afterEach(unmountAll);

const shipping: ElicitationRequest = {
  server: 'shop',
  message: 'Where should we ship the order?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', description: 'Who signs for it', minLength: 2 },
      express: { type: 'boolean', title: 'Express' },
      size: { type: 'string', title: 'Box size', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
    },
    required: ['name', 'size'],
  },
};

const permissionRequest = (n: number): AgentEvent[] => [
  { type: 'tool_call_started', toolUseId: `tu${n}`, name: 'Bash', index: 1 },
  { type: 'tool_call_ready', toolUseId: `tu${n}`, name: 'Bash', input: { command: 'make ship' } },
  {
    type: 'permission_request',
    requestId: `req${n}`,
    toolUseId: `tu${n}`,
    toolName: 'Bash',
    intent: { ruleName: 'Bash', subject: 'make ship', paths: [], summary: 'Run make ship' },
  },
];

type Harness = ReturnType<typeof start>;

/** Asks the question as a server would; the promise settles with the UI's answer. */
function ask(h: Harness, request = shipping, signal?: AbortSignal): { answer: Promise<ElicitationAnswer>; settled: () => ElicitationAnswer | undefined } {
  let result: ElicitationAnswer | undefined;
  const answer = h.controller.elicit(request, signal).then((a) => (result = a));
  return { answer, settled: () => result };
}

async function typeText(h: Harness, text: string) {
  for (const ch of text) await h.press(ch);
}

describe('an MCP server asks with a form', () => {
  test('the form shows the server, its message and one line per field; keys fill it and Enter sends the answer', async () => {
    const h = start();
    await h.until('Ask moat');
    const q = ask(h);
    await h.until('MCP server shop asks');
    const f = h.frame();
    expect(f).toContain('Where should we ship the order?');
    expect(f).toMatch(/❯ Name \*\s+at least 2 characters/);
    expect(f).toContain('Who signs for it');
    expect(f).toContain('[ ] no');
    expect(f).toContain('choose with ←/→');
    expect(f).toContain('Esc to decline');
    await typeText(h, 'Ada');
    await h.until('Ada');
    await h.press(KEYS.tab);
    await h.press(' ');
    await h.until('[x] yes');
    await h.press(KEYS.down);
    await h.press(KEYS.right);
    await h.until('‹ Small ›');
    await h.press(KEYS.right);
    await h.until('‹ Large ›');
    await h.press(KEYS.enter);
    expect(await q.answer).toEqual({ action: 'accept', content: { name: 'Ada', express: true, size: 'l' } });
    await h.until('Ask moat');
    expect(h.frame()).not.toContain('MCP server shop asks');
  });

  test('Enter on an invalid form shows each failing field its error and keeps the form; fixing it sends', async () => {
    const h = start();
    await h.until('Ask moat');
    const q = ask(h);
    await h.until('MCP server shop asks');
    await h.press('A');
    await h.press(KEYS.enter);
    await h.until('✗ Too small: expected string to have >=2 characters');
    expect(h.frame()).toContain('✗ required');
    expect(q.settled()).toBeUndefined();
    await h.press('l');
    await waitFor(() => !h.frame().includes('Too small'), 'the fixed field to lose its error');
    await h.press(KEYS.down);
    await h.press(KEYS.down);
    await h.press(KEYS.left);
    await h.press(KEYS.enter);
    expect(await q.answer).toEqual({ action: 'accept', content: { name: 'Al', express: false, size: 'l' } });
  });

  test('Esc declines; Ctrl-C cancels without arming exit', async () => {
    const h = start();
    await h.until('Ask moat');
    const first = ask(h);
    await h.until('MCP server shop asks');
    await h.press(KEYS.esc);
    expect(await first.answer).toEqual({ action: 'decline' });
    const second = ask(h);
    await h.until('MCP server shop asks');
    await h.press(KEYS.ctrlC);
    expect(await second.answer).toEqual({ action: 'cancel' });
    await h.until('Ask moat');
    expect(h.frame()).not.toContain('Press Ctrl-C again to exit');
    expect(h.exited()).toBe(0);
  });

  test('questions asked together queue: one form at a time, the count of those waiting shown', async () => {
    const h = start();
    await h.until('Ask moat');
    const one = ask(h);
    const two = ask(h, { ...shipping, server: 'calendar', message: 'Which day?', requestedSchema: { type: 'object', properties: { day: { type: 'string', format: 'date' } } } });
    await h.until('MCP server shop asks · 1 more waiting');
    await h.press(KEYS.esc);
    expect(await one.answer).toEqual({ action: 'decline' });
    await h.until('MCP server calendar asks');
    expect(h.frame()).not.toContain('more waiting');
    expect(h.frame()).toContain('YYYY-MM-DD');
    await typeText(h, '2026-12-01');
    await h.press(KEYS.enter);
    expect(await two.answer).toEqual({ action: 'accept', content: { day: '2026-12-01' } });
  });

  test('a question its server withdraws closes the form (or leaves the queue) and is said once', async () => {
    const h = start();
    await h.until('Ask moat');
    const onScreen = new AbortController();
    const queued = new AbortController();
    const one = ask(h, shipping, onScreen.signal);
    const two = ask(h, { ...shipping, server: 'other' }, queued.signal);
    await h.until('1 more waiting');
    queued.abort();
    expect(await two.answer).toEqual({ action: 'cancel' });
    await waitFor(() => !h.frame().includes('more waiting'), 'the count to drop');
    onScreen.abort();
    expect(await one.answer).toEqual({ action: 'cancel' });
    await h.until('MCP server shop withdrew its question');
    expect(h.frame()).toContain('MCP server other withdrew its question');
    expect(h.frame()).not.toContain('MCP server shop asks');
    // An answer already withdrawn: a question asked with an aborted signal never opens.
    const gone = new AbortController();
    gone.abort();
    expect(await ask(h, shipping, gone.signal).answer).toEqual({ action: 'cancel' });
  });

  test('a question asked while a permission dialog is open waits for it; the dialog does not get the form keys', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, ...permissionRequest(1), { awaitPermission: 'req1' }, finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('ship it');
    await h.press(KEYS.enter);
    await h.until('Run a command');
    const q = ask(h);
    expect(h.app.elicitations.form()).toBeUndefined();
    await h.press('1');
    await waitFor(() => h.controller.decisions.length === 1, 'the permission answer');
    await h.until('MCP server shop asks');
    await h.press(KEYS.esc);
    expect(await q.answer).toEqual({ action: 'decline' });
  });

  test('a form on screen keeps the keys when a permission request comes: "1" is typed, not an approval', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, { gate: 'go' }, ...permissionRequest(2), { awaitPermission: 'req2' }, finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('ship it');
    await h.press(KEYS.enter);
    await waitFor(() => h.app.isBusy(), 'the run');
    const q = ask(h);
    await h.until('MCP server shop asks');
    await waitFor(() => h.controller.release('go'), 'the run to reach its gate');
    await waitFor(() => h.app.transcript.permissions.get().length === 1, 'the permission request');
    await h.press('1');
    await h.press('2');
    await h.until('12');
    expect(h.controller.decisions).toEqual([]);
    await h.press(KEYS.down);
    await h.press(KEYS.down);
    await h.press(KEYS.right);
    await h.press(KEYS.enter);
    expect(await q.answer).toEqual({ action: 'accept', content: { name: '12', express: false, size: 's' } });
    await h.until('Run a command');
    await h.press('1');
    await waitFor(() => h.controller.decisions.length === 1, 'the permission answer');
  });

  test('interrupting the turn cancels the questions asked for it', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, { awaitAbort: true }]));
    await h.until('Ask moat');
    await h.type('ship it');
    await h.press(KEYS.enter);
    await waitFor(() => h.app.isBusy(), 'the run');
    const q = ask(h);
    await h.until('MCP server shop asks');
    h.app.interrupt();
    expect(await q.answer).toEqual({ action: 'cancel' });
    await h.until('Interrupted');
  });

  test("a server's control characters are not drawn: its message cannot clear the screen or retitle the terminal", async () => {
    const h = start();
    await h.until('Ask moat');
    const q = ask(h, {
      server: 'evil\x1b[2J',
      message: 'Hello\x1b]0;owned\x07 there\x1b[31m',
      requestedSchema: { type: 'object', properties: { x: { type: 'string', title: 'Field\x1b[1A', description: 'd\x9b2J', enum: ['a\x1bc'] } } },
    });
    await h.until('Hello');
    const f = h.frame();
    expect(f).not.toContain('\x1b[2J');
    expect(f).not.toContain('\x1b]0;');
    expect(f).not.toContain('\x1b[1A');
    expect(f).not.toContain('\x9b');
    expect(f).not.toContain('\x1bc');
    expect(f).toContain('MCP server evil [2J asks');
    expect(f).toContain('Hello ]0;owned  there [31m');
    await h.press(KEYS.esc);
    expect(await q.answer).toEqual({ action: 'decline' });
  });

  test('a paste goes into the focused field on one line; a picker waits under the form and comes back after it', async () => {
    const h = start((c) => (c.grants = ['.claude/settings.json: 1 allow rule']));
    await h.until('Trust this folder?');
    const q = ask(h);
    await h.until('MCP server shop asks');
    expect(h.frame()).not.toContain('Trust this folder?');
    h.stdin.write('\x1b[200~Ada\nLovelace\x1b[201~');
    await h.until('Ada Lovelace');
    await h.press(KEYS.down);
    await h.press(KEYS.down);
    await h.press(KEYS.right);
    await h.press(KEYS.enter);
    expect(await q.answer).toEqual({ action: 'accept', content: { name: 'Ada Lovelace', express: false, size: 's' } });
    await h.until('Trust this folder?');
    expect(h.controller.trusted).toBe(false);
  });

  test('a long form scrolls with the focus and keeps its header and keys on screen', async () => {
    const h = start();
    await h.until('Ask moat');
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, { type: 'string' as const, title: `Field number ${i}` }]));
    const q = ask(h, { server: 'big', message: 'Many fields', requestedSchema: { type: 'object', properties } });
    await h.until('MCP server big asks');
    expect(h.frame()).toContain('more fields');
    expect(h.frame()).not.toContain('Field number 39');
    await h.press(KEYS.up);
    await h.until('Field number 39');
    expect(h.frame()).toContain('MCP server big asks');
    expect(h.frame()).toContain('Esc to decline');
    await h.press(KEYS.esc);
    expect(await q.answer).toEqual({ action: 'decline' });
  });
});
