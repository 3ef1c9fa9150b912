// MCP in the TUI: the start-up approval of a project's servers, /mcp, a failure said once, prompts as slash commands, @server:uri.
import { afterEach, describe, expect, test } from 'bun:test';
import type { McpServerView } from '../../src/tui/views.ts';
import { finished } from './fake-client.ts';
import { KEYS, start, unmountAll, waitFor } from './harness.tsx';

afterEach(unmountAll);

const docs: McpServerView = {
  name: 'docs',
  origin: '.mcp.json',
  transport: 'stdio',
  status: 'connected',
  sandboxed: true,
  tools: ['search', 'fetch_page'],
  prompts: [{ command: 'mcp__docs__summarize', description: 'Summarize a topic', args: [{ name: 'topic', required: true }] }],
  resources: [{ ref: 'docs:file:///guide.md', name: 'guide' }],
};

describe('MCP in the TUI', () => {
  test("a project's servers wait for approval at start; approving starts them and is said in the transcript", async () => {
    const h = start((c) => (c.mcpList = [{ ...docs, status: 'needs-approval', tools: [], prompts: [], resources: [] }]));
    await h.until('Start it?');
    expect(h.frame()).toContain('.mcp.json wants to start MCP server docs');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.actions.includes('approve docs'), 'approval');
    await h.until('Approved MCP server docs for this folder');
    h.controller.changeMcp((l) => l.map((srv) => ({ ...srv, status: 'connected' as const })));
    await h.until('MCP server docs connected: 0 tools, 0 prompts, 0 resources.');
  });

  test('"Not now" starts nothing; the trust question comes first and the MCP one after it', async () => {
    const h = start((c) => {
      c.grants = ['.claude/settings.json: 1 allow rule'];
      c.mcpList = [{ ...docs, status: 'needs-approval' }];
    });
    await h.until('Trust this folder?');
    expect(h.frame()).not.toContain('Start it?');
    await h.press(KEYS.down);
    await h.press(KEYS.enter);
    await h.until('Start it?');
    await h.press(KEYS.down);
    await h.press(KEYS.enter);
    await h.until('Ask moat');
    expect(h.controller.actions).not.toContain('approve docs');
    expect(h.controller.trusted).toBe(false);
  });

  test('/mcp lists servers with state, transport, sandbox and counts, and reconnects the one picked', async () => {
    const h = start((c) => (c.mcpList = [docs, { ...docs, name: 'broken', status: 'failed', error: 'spawn nope ENOENT', tools: [], prompts: [], resources: [] }]));
    await h.until('MCP server broken failed: spawn nope ENOENT');
    await h.type('/mcp');
    await h.press(KEYS.enter);
    await h.until('Reconnect an MCP server?');
    const f = h.frame();
    expect(f).toContain('docs  ✓ connected  stdio · sandboxed · 2 tools · 1 prompts · 1 resources · .mcp.json');
    expect(f).toContain('broken  ✗ failed');
    await h.press(KEYS.down);
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.actions.includes('reconnect broken'), 'reconnect');
  });

  test('a failing server is said once, and again only after it came back and failed anew', async () => {
    const h = start((c) => (c.mcpList = [docs]));
    await h.until('Ask moat');
    const fail = () => h.controller.changeMcp((l) => l.map((s) => ({ ...s, status: 'failed' as const, error: 'connection closed' })));
    fail();
    fail();
    await h.until('MCP server docs failed: connection closed');
    const notices = () => h.app.transcript.committed.get().items.filter((i) => i.kind === 'notice' && i.text.includes('docs failed')).length;
    expect(notices()).toBe(1);
    h.controller.changeMcp((l) => l.map((s) => ({ ...s, status: 'connected' as const })));
    fail();
    await waitFor(() => notices() === 2, 'second notice');
  });

  test("a server's prompt is a slash command: completed, listed in /help, its text sent; a missing argument is a usage line", async () => {
    const h = start((c) => {
      c.mcpList = [docs];
      c.scripts.push([finished('end_turn')]);
    });
    await h.until('Ask moat');
    await h.type('/mcp__d');
    await h.until('/mcp__docs__summarize <topic>');
    await h.press(KEYS.ctrlU);
    await h.type('/mcp__docs__summarize');
    await h.press(KEYS.enter);
    await h.until('/mcp__docs__summarize needs topic');
    await h.type('/mcp__docs__summarize rust lifetimes');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'prompt sent');
    expect(h.controller.prompts[0]?.text).toBe('prompt mcp__docs__summarize with rust lifetimes');
    await h.app.idle;
    await h.type('/help');
    await h.press(KEYS.enter);
    await h.until('MCP prompts');
    expect(h.frame()).toContain('/mcp__docs__summarize <topic>  Summarize a topic');
  });

  test('@server:uri attaches a resource of a known server; @ completes resources after files', async () => {
    const h = start((c) => {
      c.mcpList = [docs];
      c.scripts.push([finished('end_turn')]);
    });
    await h.until('Ask moat');
    await h.type('read @guide');
    await h.until('docs:file:///guide.md');
    await h.press(KEYS.ctrlU);
    await h.type('compare @docs:file:///guide.md with @other:thing');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'prompt sent');
    expect(h.controller.prompts[0]?.resources).toEqual(['docs:file:///guide.md']);
  });
});
