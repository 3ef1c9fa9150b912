/** The TUI's `!cmd` (the `shell` operation) through the real client, host and session: the permission check and events a Bash call gets, and a checkpoint a rewind puts the files back to. */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionEvent } from '../../src/protocol/index.ts';
import { projectCheckpoints } from '../../src/checkpoints/index.ts';
import { assembleSession } from '../../src/cli/open-session.ts';
import { createTuiClient } from '../../src/cli/tui-client.ts';
import { loadConfig } from '../../src/config/index.ts';
import { ModelRouter } from '../../src/providers/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { tempDir } from '../support/temp.ts';
import { treeState } from '../support/tree-state.ts';
import { runShell } from '../support/tui-ops.ts';

async function make(permissionMode: 'default' | 'acceptEdits' = 'default') {
  const base = tempDir('moat-shell-cmd-');
  const repo = join(base, 'repo');
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, 'a.txt'), 'alpha\n');
  const env = { HOME: join(base, 'home'), XDG_CONFIG_HOME: join(base, 'home', '.config'), XDG_DATA_HOME: join(base, 'data') };
  const loaded = loadConfig({ cwd: repo, env });
  const settings = testSettings(repo, { home: env.HOME, permissionMode });
  const router = new ModelRouter({ env: { ANTHROPIC_API_KEY: 'k' } });
  const assembly = await assembleSession({ loaded, settings, router, env, skills: [], warn: () => {}, interactive: true, answers: { remember: () => {} } });
  const c = createTuiClient({ assembly, router, settings, loaded, logFile: join(base, 'tui.log'), skills: [] });
  return { c, repo, assembly, dataDir: join(base, 'data', 'moat') };
}

/** Answers every question with `behavior` once it is open, and keeps the events. */
function answering(c: Awaited<ReturnType<typeof make>>['c'], behavior: 'allow' | 'deny') {
  const events: SessionEvent[] = [];
  const onEvent = (e: SessionEvent) => {
    events.push(e);
    if (e.type === 'permission_request') setTimeout(() => c.session.submit({ type: 'permission_answer', requestId: e.requestId, decision: behavior === 'allow' ? { behavior } : { behavior, message: 'not now' } }), 0);
  };
  return { events, onEvent };
}

describe("the TUI's !cmd", () => {
  test('a command that writes is asked about as a Bash call is; denied, it does not run, and the events say so', async () => {
    const { c, repo } = await make();
    try {
      const { events, onEvent } = answering(c, 'deny');
      const r = await runShell(c, 'echo changed > a.txt', new AbortController().signal, onEvent);
      expect(events.map((e) => e.type)).toEqual(['permission_request', 'permission_resolved', 'permission_denied']);
      const asked = events[0]!;
      expect(asked.type === 'permission_request' && [asked.toolName, asked.input]).toEqual(['Bash', { command: 'echo changed > a.txt', sandbox: 'workspace-write' }]);
      expect(r.output).toContain('The user denied this Bash call. The user said: not now');
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');
    } finally {
      await c.lifecycle.shutdown();
    }
  });

  test("a deny rule refuses it without asking, as it would the model's call", async () => {
    const { c, repo } = await make('acceptEdits');
    try {
      c.session.submit({ type: 'add_rule', rule: 'Bash(echo:*)', behavior: 'deny', scope: 'project' });
      const { events, onEvent } = answering(c, 'allow');
      const r = await runShell(c, 'echo changed > a.txt', new AbortController().signal, onEvent);
      expect(events.map((e) => e.type)).toEqual(['permission_denied']);
      expect(r.exitCode).toBeNull();
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');
    } finally {
      await c.lifecycle.shutdown();
    }
  });

  test('allowed, it runs between two checkpoints; a rewind to them puts the files back byte for byte', async () => {
    const { c, repo, assembly, dataDir } = await make();
    try {
      const before = treeState(repo);
      const { events, onEvent } = answering(c, 'allow');
      const r = await runShell(c, "sed -i 's/alpha/ALPHA/' a.txt && printf 'new\\n' > made.txt && chmod 755 made.txt", new AbortController().signal, onEvent);
      expect(r.exitCode).toBe(0);
      expect(events.map((e) => e.type)).toEqual(['permission_request', 'permission_resolved']);
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('ALPHA\n');
      const sessionId = c.queries.info().sessionId;
      const rows = assembly.store.checkpoints.list(sessionId);
      expect(rows.map((row) => [row.turn, row.afterCommit !== null])).toEqual([[1, true]]);
      const pc = projectCheckpoints(assembly.store, repo, dataDir)!;
      const plan = await pc.plan(sessionId, 1);
      expect(plan.conflicts).toEqual([]);
      await pc.restore(plan, { force: false });
      expect(treeState(repo)).toEqual(before);
      expect(existsSync(join(repo, 'made.txt'))).toBe(false);
    } finally {
      await c.lifecycle.shutdown();
    }
  });
});
