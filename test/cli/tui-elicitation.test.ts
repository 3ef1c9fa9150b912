// The relay between MCP servers' elicitation and the TUI's form: forwarded while the UI listens, cancelled otherwise and for URL mode.
import { describe, expect, test } from 'bun:test';
import { elicitationRelay } from '../../src/cli/tui-elicitation.ts';
import type { ElicitationRequest } from '../../src/tui/index.ts';

const form = { mode: 'form' as const, message: 'Your name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] } };
const signal = new AbortController().signal;

describe('elicitation relay', () => {
  test('no form registered yet: cancel, as before the UI is up', async () => {
    expect(await elicitationRelay().elicit('shop', form, signal)).toEqual({ action: 'cancel' });
  });

  test("a registered form gets the server's name, message, schema and signal; its answer goes back; unregistering stops it", async () => {
    const relay = elicitationRelay();
    const asked: { request: ElicitationRequest; signal: AbortSignal }[] = [];
    const off = relay.onElicitation((request, s) => {
      asked.push({ request, signal: s });
      return Promise.resolve({ action: 'accept', content: { name: 'Ada' } });
    });
    expect(await relay.elicit('shop', form, signal)).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(asked).toEqual([{ request: { server: 'shop', message: 'Your name?', requestedSchema: form.requestedSchema }, signal }]);
    off();
    expect(await relay.elicit('shop', form, signal)).toEqual({ action: 'cancel' });
    expect(asked).toHaveLength(1);
  });

  test('URL mode is not asked in the TUI: cancel', async () => {
    const relay = elicitationRelay();
    relay.onElicitation(() => Promise.resolve({ action: 'decline' }));
    expect(await relay.elicit('shop', { mode: 'url', message: 'Log in', elicitationId: 'e1', url: 'https://example.com/login' }, signal)).toEqual({ action: 'cancel' });
  });
});
