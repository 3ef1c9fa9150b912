/** The reference server `@modelcontextprotocol/server-everything` over stdio, inside the OS sandbox: tools, results, progress, cancellation, roots, resources, prompts. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { pathToFileURL } from 'node:url';
import { attachMcp } from '../../src/cli/mcp-setup.ts';
import { loadConfig } from '../../src/config/index.ts';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import type { McpManager } from '../../src/mcp/index.ts';
import { builtinTools, ToolRegistry, TOOL_SEARCH_NAME, type AnyTool, type ToolDisplay } from '../../src/tools/index.ts';
import { tempDir } from '../support/temp.ts';
import { everything, EVERYTHING_JS, manager, toolContext } from './support.ts';

let m: McpManager;
const tool = (name: string): AnyTool => {
  const t = m.tools().find((x) => x.name === name);
  if (t === undefined) throw new Error(`no tool ${name} in ${m.tools().map((x) => x.name).join(', ')}`);
  return t;
};

beforeAll(async () => {
  m = manager([everything({ trustAnnotations: true })]);
  m.startAll();
  await m.settled();
});
afterAll(async () => {
  await m.close();
});

describe('server-everything over stdio', () => {
  test('connects inside the OS sandbox (where this machine has one) and lists its tools as mcp__everything__*', () => {
    const [s] = m.status();
    expect(s?.state).toEqual({ status: 'connected' });
    expect(s?.sandboxed).toBe(sandboxSupport(process.env).available);
    const names = m.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image', 'mcp__everything__get-roots-list', 'ListMcpResourcesTool', 'ReadMcpResourceTool']));
    expect(s?.prompts).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
  });

  test('schemas pass through as the server gave them; readOnlyHint lowers the effect only with trust_annotations', () => {
    const sum = tool('mcp__everything__get-sum');
    expect(sum.jsonSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(tool('mcp__everything__get-structured-content').effect).toBe('read'); // readOnlyHint: true, trusted here
    expect(tool('mcp__everything__toggle-simulated-logging').effect).toBe('execute'); // no readOnlyHint
    expect(sum.intent({ a: 1, b: 2 }, { cwd: '/', roots: [] })).toEqual({ ruleName: 'mcp__everything__get-sum', paths: [], summary: 'everything: get-sum {"a":1,"b":2}' });
  });

  test('text, images, resource links and structured content come back as moat content', async () => {
    expect((await tool('mcp__everything__echo').execute({ message: 'hi' }, toolContext())).content).toBe('Echo: hi');
    expect((await tool('mcp__everything__get-sum').execute({ a: 2, b: 40 }, toolContext())).content).toContain('42');
    const image = await tool('mcp__everything__get-tiny-image').execute({}, toolContext());
    expect(Array.isArray(image.content)).toBe(true);
    expect((image.content as { type: string; mediaType?: string }[]).find((p) => p.type === 'image')).toMatchObject({ type: 'image', mediaType: 'image/png' });
    const links = await tool('mcp__everything__get-resource-links').execute({ count: 2 }, toolContext());
    expect(links.content).toMatch(/\[resource .+: demo:\/\/resource\//);
    const structured = await tool('mcp__everything__get-structured-content').execute({ location: 'Chicago' }, toolContext());
    expect(String(structured.content)).toContain('"temperature"');
  });

  test('progress notifications update the tool card', async () => {
    const updates: ToolDisplay[] = [];
    const r = await tool('mcp__everything__trigger-long-running-operation').execute({ duration: 0.3, steps: 3 }, toolContext(undefined, updates));
    expect(r.content).toContain('Long running operation completed');
    // The last notification may race the result (the SDK drops progress once the answer is in); the order never changes.
    expect(updates.slice(0, 2)).toEqual([{ type: 'text', text: '33%' }, { type: 'text', text: '67%' }]);
    expect(updates.length).toBeLessThanOrEqual(3);
  });

  // That notifications/cancelled goes out with the right request id is checked on the wire in notifications.test.ts.
  test('abort ends the call at once (not at its timeout), and the server keeps serving', async () => {
    const ac = new AbortController();
    const updates: ToolDisplay[] = [];
    const started = performance.now();
    const call = tool('mcp__everything__trigger-long-running-operation').execute({ duration: 20, steps: 200 }, toolContext(ac.signal, updates));
    while (updates.length === 0) await Bun.sleep(10);
    ac.abort();
    await expect(call).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await tool('mcp__everything__echo').execute({ message: 'still here' }, toolContext())).content).toBe('Echo: still here');
  });

  test('the working folder is announced as a root', async () => {
    const r = await tool('mcp__everything__get-roots-list').execute({}, toolContext());
    expect(String(r.content)).toContain(`file://${process.cwd()}`);
  });

  test('a resource the server adds (resources/list_changed) is listed when the call that made it returns', async () => {
    const before = m.get('everything')?.resources.length ?? 0;
    const data = `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`;
    await tool('mcp__everything__gzip-file-as-resource').execute({ name: 'listed.gz', data }, toolContext());
    const listed = JSON.parse(String((await tool('ListMcpResourcesTool').execute({}, toolContext())).content)) as { uri: string }[];
    expect(listed.map((r) => r.uri)).toContain('demo://resource/session/listed.gz');
    expect(listed.length).toBe(before + 1);
  });

  test('resources: listed and read through the two resource tools', async () => {
    const listed = JSON.parse(String((await tool('ListMcpResourcesTool').execute({}, toolContext())).content)) as { server: string; uri: string }[];
    expect(listed.length).toBeGreaterThan(0);
    const first = listed.find((r) => r.uri.includes('text')) ?? (listed[0] as { server: string; uri: string });
    expect(first.server).toBe('everything');
    const read = await tool('ReadMcpResourceTool').execute({ server: 'everything', uri: first.uri }, toolContext());
    expect(read.isError).toBeUndefined();
    expect(String(read.content)).toContain(`[resource ${first.uri}]`);
  });

  test('prompts: fetched with their arguments', async () => {
    const r = await m.get('everything')?.getPrompt('args-prompt', { city: 'Paris', state: 'Texas' });
    expect(JSON.stringify(r?.messages)).toContain('Paris');
  });

  test("its tools are offered directly while their schemas fit a tenth of the context, and go behind ToolSearch past it, every one named there", () => {
    const registry = new ToolRegistry(builtinTools());
    registry.addSource(m);
    const mcpNames = registry.names().filter((n) => n.startsWith('mcp__'));
    // The resource tools (ListMcpResourcesTool, ReadMcpResourceTool) count as ordinary drop-in tools.
    const others = registry.names().filter((n) => !n.startsWith('mcp__') && !builtinTools().some((t) => t.name === n));
    expect(registry.list().length).toBeGreaterThan(20);
    // The default budget: a tenth of a 200k-token window.
    const direct = registry.offered('s1').map((t) => t.name);
    expect(direct).toEqual(registry.names());
    // A budget its schemas overflow (a small model's window).
    const deferred = registry.offered('s1', 100).map((t) => t.name);
    expect(deferred).toEqual([...builtinTools().map((t) => t.name), TOOL_SEARCH_NAME, ...others]);
    const description = registry.get(TOOL_SEARCH_NAME)!.description;
    for (const name of mcpNames) expect(description).toContain(name);
  });
});

describe('roots', () => {
  test('a session announces the working folder and its --add-dir folders (config and flag wiring included)', async () => {
    const home = tempDir('moat-mcp-roots-home-');
    const cwd = tempDir('moat-mcp-roots-cwd-');
    const extra = tempDir('moat-mcp-roots-extra-');
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_DATA_HOME: `${home}/.local/share` };
    const loaded = loadConfig({ cwd, env, flags: { addDirs: [extra] } });
    const config = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } });
    const warnings: string[] = [];
    const session = attachMcp(new ToolRegistry(builtinTools()), { loaded, env, cwd, flags: { configs: [config], strict: true }, addDirs: loaded.config.addDirs, warn: (l) => warnings.push(l) });
    try {
      await session.settled();
      expect(warnings).toEqual([]);
      const roots = session.tools().find((t) => t.name === 'mcp__everything__get-roots-list') as AnyTool;
      const text = String((await roots.execute({}, toolContext())).content);
      expect(text).toContain('(2 total)');
      expect(text).toContain(`URI: ${pathToFileURL(cwd).href}`);
      expect(text).toContain(`URI: ${pathToFileURL(extra).href}`);
    } finally {
      await session.close();
    }
  });

  test('setRoots: the server is told (roots/list_changed), asks again and sees the new list', async () => {
    const cwd = tempDir('moat-mcp-setroots-cwd-');
    const added = tempDir('moat-mcp-setroots-added-');
    const one = manager([everything()], cwd);
    try {
      one.startAll();
      await one.settled();
      const roots = one.tools().find((t) => t.name === 'mcp__everything__get-roots-list') as AnyTool;
      const listed = async () => String((await roots.execute({}, toolContext())).content);
      expect(await listed()).toContain('(1 total)');
      await one.setRoots([cwd, added]);
      // The server re-asks on the notification, in the background: wait for its answer to land.
      let text = await listed();
      for (let i = 0; i < 100 && !text.includes('(2 total)'); i++) {
        await Bun.sleep(20);
        text = await listed();
      }
      expect(text).toContain('(2 total)');
      expect(text).toContain(`URI: ${pathToFileURL(cwd).href}`);
      expect(text).toContain(`URI: ${pathToFileURL(added).href}`);
    } finally {
      await one.close();
    }
  });
});

describe('limits', () => {
  test('output over max_output_tokens is cut with a note; a call past tool_timeout_sec fails clearly; untrusted annotations change nothing', async () => {
    const small = manager([everything({ name: 'small', maxOutputTokens: 10, toolTimeoutMs: 300 })]);
    try {
      small.startAll();
      await small.settled();
      const echo = small.tools().find((t) => t.name === 'mcp__small__echo') as AnyTool;
      expect(echo.effect).toBe('execute'); // readOnlyHint: true, but trust_annotations is off
      const r = await echo.execute({ message: 'x'.repeat(400) }, toolContext());
      expect(String(r.content)).toStartWith(`Echo: ${'x'.repeat(34)}\n[output truncated: mcp__small__echo returned about 102 tokens, over the 10-token limit; 92 tokens were cut.`);
      const slow = small.tools().find((t) => t.name === 'mcp__small__trigger-long-running-operation') as AnyTool;
      await expect(slow.execute({ duration: 5, steps: 5 }, toolContext())).rejects.toThrow(/timed out/i);
    } finally {
      await small.close();
    }
  });
});
