/**
 * The sub-agent manager on its own: the queue, stopping (queued, running,
 * by control file, all at shutdown) and status snapshots. The runs here are
 * plain functions; the task tests cover real sessions.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ZERO_USAGE } from '../../../src/providers/index.ts';
import { requestStop, SubagentManager, type LaunchSpecForTest, type SubagentOutcome } from './manager-support.ts';
import { tempDir } from '../../support/temp.ts';

const done = (result: string): SubagentOutcome => ({ status: 'done', stopReason: 'end_turn', result, turns: 1, usage: ZERO_USAGE, costUsd: 0, durationMs: 0, notes: [] });

/** A run that finishes when released, or ends as stopped when its signal aborts. */
function gated() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started = false;
  const run: LaunchSpecForTest['run'] = async (signal) => {
    started = true;
    await Promise.race([gate, new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }))]);
    return signal.aborted ? { ...done(''), status: 'stopped', stopReason: 'aborted' } : done('released');
  };
  return { run, release: () => release(), started: () => started };
}

function spec(m: SubagentManager, run: LaunchSpecForTest['run'], extra: Partial<LaunchSpecForTest> = {}): LaunchSpecForTest {
  return { agentId: m.newAgentId(), parentSessionId: 'parent', parentToolUseId: 'toolu_1', description: 'd', background: true, run, ...extra };
}

describe('SubagentManager', () => {
  test('runs at most maxConcurrent at once; the rest wait in order and start as slots free up', async () => {
    const m = new SubagentManager({ maxConcurrent: 2 });
    const runs = [gated(), gated(), gated()];
    const launched = runs.map((g) => m.launch(spec(m, g.run)));
    expect(launched.map((l) => l.info.status)).toEqual(['running', 'running', 'queued']);
    expect(runs.map((g) => g.started())).toEqual([true, true, false]);
    runs[1]!.release();
    expect((await launched[1]!.done).result).toBe('released');
    expect(runs[2]!.started()).toBe(true);
    runs[0]!.release();
    runs[2]!.release();
    await Promise.all(launched.map((l) => l.done));
    expect(m.list().map((a) => a.status)).toEqual(['done', 'done', 'done']);
  });

  test('a queued agent stops without ever running; a running one through its signal', async () => {
    const m = new SubagentManager({ maxConcurrent: 1 });
    const a = gated();
    const b = gated();
    const first = m.launch(spec(m, a.run));
    const second = m.launch(spec(m, b.run));
    expect(m.stop(second.info.agentId)).toBe(true);
    expect(await second.done).toMatchObject({ status: 'stopped', error: 'stopped before it started' });
    expect(b.started()).toBe(false);
    expect(m.stop(first.info.agentId)).toBe(true);
    expect((await first.done).status).toBe('stopped');
    // Ended agents cannot be stopped again.
    expect(m.stop(first.info.agentId)).toBe(false);
    expect(m.stop('nope')).toBe(false);
  });

  test('a foreground agent stops with its parent signal, even while queued', async () => {
    const m = new SubagentManager({ maxConcurrent: 1 });
    const blocker = gated();
    m.launch(spec(m, blocker.run));
    const parent = new AbortController();
    const fg = m.launch(spec(m, gated().run, { background: false, parentSignal: parent.signal }));
    parent.abort();
    expect((await fg.done).status).toBe('stopped');
    blocker.release();
  });

  test('a foreground agent of a sub-agent runs in its parent’s slot instead of queueing behind it', async () => {
    const m = new SubagentManager({ maxConcurrent: 1 });
    const outer = gated();
    m.launch(spec(m, outer.run));
    const inner = gated();
    const nested = m.launch(spec(m, inner.run, { background: false, inheritSlot: true }));
    expect(nested.info.status).toBe('running');
    inner.release();
    outer.release();
    expect((await nested.done).status).toBe('done');
  });

  test('a run that throws ends as failed with the message', async () => {
    const m = new SubagentManager();
    const l = m.launch(spec(m, async () => Promise.reject(new Error('boom'))));
    expect(await l.done).toMatchObject({ status: 'failed', stopReason: 'error', error: 'boom' });
  });

  test('a stop file from another process stops the agent; the announcement goes when it ends', async () => {
    const dir = join(tempDir('moat-ctl-'), 'agents');
    const m = new SubagentManager({ controlDir: dir, pollMs: 10 });
    const l = m.launch(spec(m, gated().run));
    const file = join(dir, `${l.info.agentId}.json`);
    expect(existsSync(file)).toBe(true);
    requestStop(dir, l.info.agentId);
    expect((await l.done).status).toBe('stopped');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(dir, `${l.info.agentId}.stop`))).toBe(false);
  });

  test('shutdown stops everything, waits for it, and refuses new launches', async () => {
    const m = new SubagentManager({ maxConcurrent: 1 });
    const seen: string[] = [];
    m.subscribe((i) => seen.push(i.status));
    const a = m.launch(spec(m, gated().run));
    const b = m.launch(spec(m, gated().run));
    await m.shutdown();
    expect([(await a.done).status, (await b.done).status]).toEqual(['stopped', 'stopped']);
    const late = m.launch(spec(m, gated().run));
    expect((await late.done).status).toBe('stopped');
    // a: queued, running; b: queued; shutdown stops b (queued) at once, then a winds down; the late one never runs.
    expect(seen).toEqual(['queued', 'running', 'queued', 'stopped', 'stopped', 'queued', 'stopped']);
  });
});
