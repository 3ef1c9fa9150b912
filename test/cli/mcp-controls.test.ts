/** The TUI's MCP part against the reference server-everything: the /mcp view, a prompt as a slash command, `@server:uri` text. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mcpControls } from '../../src/cli/mcp-controls.ts';
import type { LoadedConfig } from '../../src/config/index.ts';
import type { McpManager } from '../../src/mcp/index.ts';
import { everything, manager } from '../mcp/support.ts';

let m: McpManager;
let controls: ReturnType<typeof mcpControls>;

beforeAll(async () => {
  m = manager([everything()]);
  m.startAll();
  await m.settled();
  controls = mcpControls(m, { projectRoot: '/nonexistent/project' } as LoadedConfig);
});
afterAll(async () => {
  await m.close();
});

describe('MCP for the TUI, against server-everything', () => {
  test('the /mcp view: connected, its tools, prompts as commands with their arguments, resources as server:uri', () => {
    const [view] = controls.queries.mcpServers();
    expect(view).toMatchObject({ name: 'everything', transport: 'stdio', status: 'connected' });
    expect(view?.tools).toContain('echo');
    expect(view?.prompts).toContainEqual(expect.objectContaining({ command: 'mcp__everything__args-prompt', args: [{ name: 'city', required: true }, { name: 'state', required: false }] }));
    expect(view?.resources.length).toBeGreaterThan(0);
    expect(view?.resources.every((r) => r.ref.startsWith('everything:'))).toBe(true);
  });

  test("/mcp__everything__args-prompt fills the arguments left to right and sends the server's text", async () => {
    const text = await controls.queries.mcpPrompt('mcp__everything__args-prompt', '"San Francisco" California');
    expect(text).toContain('San Francisco');
    expect(text).toContain('California');
    await expect(controls.queries.mcpPrompt('mcp__everything__args-prompt', '')).rejects.toThrow('/mcp__everything__args-prompt needs city. Usage: /mcp__everything__args-prompt <city> [state]');
    await expect(controls.queries.mcpPrompt('mcp__nobody__x', '')).rejects.toThrow('no connected MCP server offers this prompt');
  });

  test('@everything:<uri> becomes the resource text; an unknown URI and an unknown server say why in its place', async () => {
    const ref = controls.queries.mcpServers()[0]?.resources.find((r) => r.ref.endsWith('features.md'))?.ref ?? '';
    const [ok, missing, offline] = await controls.resourceParts([ref, 'everything:demo://nothing/here', 'ghost:file:///x'], new AbortController().signal);
    expect(ok).toStartWith(`<resource server="everything" uri="${ref.slice('everything:'.length)}">\n`);
    expect(ok?.length).toBeGreaterThan(60);
    expect(missing).toContain('(could not read:');
    expect(offline).toBe('<resource server="ghost" uri="file:///x">(not attached: ghost is not connected)</resource>');
  });
});
