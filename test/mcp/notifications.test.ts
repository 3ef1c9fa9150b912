/** What goes over the wire besides requests: notifications/cancelled when a call is aborted, and list_changed refreshing tools, prompts and resources. */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import type { McpManager } from '../../src/mcp/index.ts';
import { builtinTools, ToolRegistry, type AnyTool } from '../../src/tools/index.ts';
import { manager, stdioServer, toolContext } from './support.ts';

const FIXTURE = resolve(import.meta.dir, 'fixtures/hostile-server.ts');

async function started(name: string, mode: string): Promise<McpManager> {
  const m = manager([stdioServer(name, process.execPath, [FIXTURE, mode])]);
  m.startAll();
  await m.settled();
  expect(m.status()[0]?.state).toEqual({ status: 'connected' });
  return m;
}

function tool(m: McpManager, name: string): AnyTool {
  const t = m.tools().find((x) => x.name === name);
  if (t === undefined) throw new Error(`no ${name} in ${m.tools().map((x) => x.name).join(', ')}`);
  return t;
}

type Received = { id?: number | string; method?: string; params?: { name?: string; requestId?: number | string; reason?: string } };

async function received(m: McpManager): Promise<Received[]> {
  return JSON.parse(String((await tool(m, 'mcp__rec__log').execute({}, toolContext())).content)) as Received[];
}

describe('cancellation', () => {
  test('aborting a call sends notifications/cancelled with that call’s request id, and the server keeps serving', async () => {
    const m = await started('rec', 'record');
    try {
      const ac = new AbortController();
      const call = tool(m, 'mcp__rec__wait').execute({}, toolContext(ac.signal));
      // Abort only once the server has the call: a cancellation for a request it never saw proves nothing.
      let waitCall: Received | undefined;
      while (waitCall === undefined) waitCall = (await received(m)).find((r) => r.method === 'tools/call' && r.params?.name === 'wait');
      ac.abort();
      await expect(call).rejects.toThrow();
      let cancelled: Received | undefined;
      for (let i = 0; i < 100 && cancelled === undefined; i++) cancelled = (await received(m)).find((r) => r.method === 'notifications/cancelled');
      expect(cancelled?.id).toBeUndefined();
      expect(cancelled?.params?.requestId).toBe(waitCall.id as number);
      expect(typeof cancelled?.params?.reason).toBe('string');
      expect((await tool(m, 'mcp__rec__ok').execute({}, toolContext())).content).toBe('fine');
    } finally {
      await m.close();
    }
  });

  test('a call carries the model’s call id in _meta under Claude Code’s key (servers written for Claude Code, like claude-code-acp’s, need it)', async () => {
    const m = await started('rec', 'record');
    try {
      await tool(m, 'mcp__rec__ok').execute({}, toolContext());
      const call = (await received(m)).find((r) => r.method === 'tools/call' && r.params?.name === 'ok') as { params?: { _meta?: Record<string, unknown> } } | undefined;
      expect(call?.params?._meta?.['claudecode/toolUseId']).toBe('toolu_test');
    } finally {
      await m.close();
    }
  });

  test('a call that finishes normally sends no cancellation', async () => {
    const m = await started('rec', 'record');
    try {
      await tool(m, 'mcp__rec__ok').execute({}, toolContext());
      expect((await received(m)).filter((r) => r.method === 'notifications/cancelled')).toEqual([]);
    } finally {
      await m.close();
    }
  });
});

describe('list_changed', () => {
  test('tools, prompts and resources the server adds during a call are there when the call returns: the next turn offers them', async () => {
    const m = await started('lc', 'list-changed');
    try {
      const registry = new ToolRegistry(builtinTools());
      registry.addSource(m);
      const conn = m.get('lc');
      expect(m.tools().map((t) => t.name)).toEqual(['mcp__lc__grow', 'mcp__lc__ok', 'ListMcpResourcesTool', 'ReadMcpResourceTool']);
      expect(conn?.prompts.map((p) => p.name)).toEqual(['first']);
      expect(registry.get('mcp__lc__grown2')).toBeUndefined();
      expect((await tool(m, 'mcp__lc__grow').execute({}, toolContext())).content).toBe('grew');
      // No waiting here: the result is the turn's end, and the next request is built from the registry at once.
      expect(registry.get('mcp__lc__grown2')).toBeDefined();
      expect(m.status()[0]?.tools).toEqual(['grow', 'ok', 'grown2']);
      expect(conn?.prompts.map((p) => p.name)).toEqual(['first', 'grown1']);
      expect(conn?.resources.map((r) => r.uri)).toEqual(['grown://first', 'grown://1']);
    } finally {
      await m.close();
    }
  });
});
