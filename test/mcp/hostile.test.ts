/** Servers that misbehave: each is a clear error for that server or call, and moat (and the other servers) keep working. */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import type { McpManager } from '../../src/mcp/index.ts';
import { builtinTools, decidePermission, parseRuleList, ToolRegistry, type AnyTool } from '../../src/tools/index.ts';
import { RESTART_BACKOFF_MS } from '../../src/mcp/connection.ts';
import { everything, manager, stdioServer, toolContext } from './support.ts';

/** Polls a condition the manager reaches on its own (a server's exit is seen a moment after the call failed). */
async function waitFor(fn: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await Bun.sleep(10);
  }
}

const HOSTILE = resolve(import.meta.dir, 'fixtures/hostile-server.ts');
const hostile = (mode: string, over = {}) => stdioServer(mode.replace(/[^a-z]/g, ''), process.execPath, [HOSTILE, mode], over);

async function started(m: McpManager): Promise<McpManager> {
  m.startAll();
  await m.settled();
  return m;
}

function toolOf(m: McpManager, name: string): AnyTool {
  const t = m.tools().find((x) => x.name === name);
  if (t === undefined) throw new Error(`no ${name}`);
  return t;
}

describe('hostile MCP servers', () => {
  test('a server that never answers initialize fails after its start-up timeout, reported once; the others connect', async () => {
    const failures: string[] = [];
    const m = manager([hostile('silent', { startupTimeoutMs: 500 }), everything()], process.cwd(), { failures });
    try {
      const t0 = performance.now();
      await started(m);
      expect(performance.now() - t0).toBeLessThan(8000);
      const silent = m.status().find((s) => s.name === 'silent');
      // A server stuck at start may be waiting on what the sandbox refuses: the error also names its grants.
      expect(silent?.state).toEqual({ status: 'failed', error: expect.stringMatching(/^did not finish starting within 0\.5 s \(startup_timeout_sec\) \(in the OS sandbox — network: none;/) });
      expect(m.status().find((s) => s.name === 'everything')?.state).toEqual({ status: 'connected' });
      expect(failures).toEqual([`silent: ${(silent?.state as { error: string }).error}`]);
    } finally {
      await m.close();
    }
  });

  test('a stdio server that crashes mid-call: that call says so; the next call restarts it once (after the backoff) and the model is told; a second crash is final', async () => {
    const failures: string[] = [];
    const m = await started(manager([hostile('crash')], process.cwd(), { failures }));
    try {
      // The backoff counts from the crash: the failed call itself may take a while to hear of it (the sandbox's last reports are read first).
      const t0 = performance.now();
      await expect(toolOf(m, 'mcp__crash__boom').execute({}, toolContext())).rejects.toThrow(/^mcp__crash__boom failed: MCP server crash: the server exited.*; it is restarted on the next call \(connection closed\)$/);
      await waitFor(() => m.status()[0]?.state.status === 'failed');
      // Its tools stay offered: the model can call again.
      expect(m.tools().map((t) => t.name)).toContain('mcp__crash__ok');
      const again = await toolOf(m, 'mcp__crash__ok').execute({}, toolContext());
      expect(performance.now() - t0).toBeGreaterThanOrEqual(RESTART_BACKOFF_MS - 10);
      expect(again.content).toMatch(/^\[The MCP server crash had exited \(the server exited.*\); moat restarted it for this call\. It is restarted once: .*\]\nfine$/);
      expect(m.status()[0]?.state).toEqual({ status: 'connected' });
      // Told once: the next result is the server's alone.
      expect((await toolOf(m, 'mcp__crash__ok').execute({}, toolContext())).content).toBe('fine');
      await expect(toolOf(m, 'mcp__crash__boom').execute({}, toolContext())).rejects.toThrow(/the server exited/);
      await waitFor(() => m.status()[0]?.state.status === 'failed');
      expect(m.status()[0]?.state).toMatchObject({ status: 'failed', error: expect.not.stringContaining('restarted') });
      // The tools of a server gone for good leave the registry.
      expect(m.tools()).toEqual([]);
      expect(failures).toHaveLength(2);
    } finally {
      await m.close();
    }
  });

  test('a server that sends 50 MB in one message is cut off with a clear error instead of filling memory', async () => {
    const m = await started(manager([hostile('flood', { toolTimeoutMs: 60_000 })]));
    try {
      const t0 = performance.now();
      await expect(toolOf(m, 'mcp__flood__boom').execute({}, toolContext())).rejects.toThrow(/mcp__flood__boom failed/);
      // Cut off, not timed out: well before the 60 s tool timeout (10.5-16.3 s seen on the 2-core CI machine); the status says why.
      expect(performance.now() - t0).toBeLessThan(45_000);
      expect(m.status()[0]?.state).toMatchObject({ status: 'failed', error: expect.stringMatching(/^sent an oversized message: .*exceeded maximum size/) });
    } finally {
      await m.close();
    }
  }, 60_000);

  test('JSON lines on stdout that are not JSON-RPC are skipped and noted once, not fatal: the call gets its answer, the server stays', async () => {
    const failures: string[] = [];
    const notices: string[] = [];
    const m = await started(manager([hostile('garbage'), hostile('chatty')], process.cwd(), { failures, notices }));
    try {
      expect((await toolOf(m, 'mcp__garbage__boom').execute({}, toolContext())).content).toBe('called boom');
      expect((await toolOf(m, 'mcp__garbage__boom').execute({}, toolContext())).content).toBe('called boom');
      expect(m.status().find((s) => s.name === 'garbage')?.state).toEqual({ status: 'connected' });
      expect(failures).toEqual([]);
      expect(notices).toEqual(['garbage: sent a line on stdout that is JSON but not JSON-RPC 2.0; it was skipped']);
      expect((await toolOf(m, 'mcp__chatty__ok').execute({}, toolContext())).content).toBe('fine');
    } finally {
      await m.close();
    }
  });

  test('a log line on stdout that is not JSON (a careless server) is tolerated, as Claude Code does', async () => {
    const m = await started(manager([hostile('chatty')]));
    try {
      expect(m.status()[0]?.state).toEqual({ status: 'connected' });
      expect((await toolOf(m, 'mcp__chatty__ok').execute({}, toolContext())).content).toBe('fine');
    } finally {
      await m.close();
    }
  });

  test('a tool named like a built-in (Bash) stays mcp__<server>__Bash: it cannot shadow the built-in or ride on its rules', async () => {
    const m = await started(manager([hostile('builtin-name')]));
    try {
      const registry = new ToolRegistry(builtinTools());
      registry.addSource(m);
      const builtinBash = builtinTools().find((t) => t.name.toLowerCase() === 'bash');
      expect(registry.get(builtinBash?.name ?? 'Bash')).toBe(builtinBash as AnyTool);
      expect(m.tools().map((t) => t.name)).toEqual(['mcp__builtinname__Bash', 'mcp__builtinname__Read']);
      const evil = toolOf(m, 'mcp__builtinname__Bash');
      const intent = evil.intent({}, { cwd: '/', roots: ['/'] });
      const rules = parseRuleList(['Bash', 'Read']);
      const policy = { mode: 'default' as const, allow: rules, deny: [], roots: ['/'], projectRoot: '/', home: '/root' };
      expect((await decidePermission({ toolName: evil.name, effect: evil.effect, intent }, policy)).kind).toBe('ask');
      // The server's own rule does cover it.
      expect((await decidePermission({ toolName: evil.name, effect: evil.effect, intent }, { ...policy, allow: parseRuleList(['mcp__builtinname']) })).kind).toBe('allow');
    } finally {
      await m.close();
    }
  });
});
