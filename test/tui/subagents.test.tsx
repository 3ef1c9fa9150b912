/**
 * Sub-agents in the TUI: a `task` call drawn as its agent's card (queued,
 * running with nested agents, done with its answer), background agents
 * followed after the run ends, the live area capped, a sub-agent's
 * permission request in the same dialog, and /agents.
 */
import { afterEach, beforeAll, describe, expect, test } from 'bun:test';
import type { AgentEvent, AgentInfo, SubagentOutcome } from '../../src/agent/index.ts';
import { renderAgentCard, renderLiveAgentCard } from '../../src/tui/render/agent-card.ts';
import { setColorLevel } from '../../src/tui/render/theme.ts';
import type { SubagentView } from '../../src/tui/state/subagents.ts';
import { finished } from './fake-client.ts';
import { KEYS, start, unmountAll, waitFor } from './harness.tsx';

beforeAll(() => setColorLevel(0));

afterEach(unmountAll);


const ZERO = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
/** Elapsed times change from run to run: snapshots show them as <t>. */
const stable = (frame: string) =>
  frame
    .replace(/\d+(\.\d)? (ms|s)\b/g, '<t>')
    .replace(/\d+ m <t>/g, '<t>')
    .replace(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /gm, '<spin> ');

function info(agentId: string, patch: Partial<AgentInfo> = {}): AgentInfo {
  return {
    agentId,
    parentSessionId: 'sess-0001-aaaa',
    parentToolUseId: `tu-${agentId}`,
    description: `Task ${agentId}`,
    background: false,
    status: 'running',
    turns: 1,
    costUsd: 0,
    queuedAt: Date.now(),
    startedAt: Date.now(),
    lastActivity: 'thinking',
    lastActivityAt: Date.now(),
    ...patch,
  };
}

function outcome(patch: Partial<SubagentOutcome> = {}): SubagentOutcome {
  return { status: 'done', stopReason: 'end_turn', result: '', turns: 3, usage: ZERO, costUsd: 0.0123, durationMs: 4200, notes: [], ...patch };
}

const taskCall = (id: string, input: Record<string, unknown>): AgentEvent[] => [
  { type: 'tool_call_started', toolUseId: id, name: 'Task', index: 1 },
  { type: 'tool_call_ready', toolUseId: id, name: 'Task', input },
  { type: 'tool_started', toolUseId: id, name: 'Task' },
];

function view(patch: Partial<SubagentView>): SubagentView {
  return {
    agentId: 'a1b2c3d4',
    parentToolUseId: 'tu1',
    parentSessionId: 's',
    description: 'Find the config loader',
    background: false,
    status: 'running',
    activity: 'thinking',
    turns: 2,
    tokens: 12_345,
    costUsd: 0.0042,
    startedAt: 1_000,
    ...patch,
  };
}

describe('agent card', () => {
  test('each state, as lines', () => {
    const o = { width: 80, cwd: '/work/project', now: 13_500 };
    const states = {
      queued: renderLiveAgentCard({ agent: view({ status: 'queued', activity: 'queued', turns: 0, tokens: 0 }), children: [] }, o),
      running: renderLiveAgentCard(
        {
          agent: view({ agent: 'explore', activity: 'Read {"file_path":"/work/project/src/config.ts"}' }),
          children: [
            { depth: 1, agent: view({ agentId: 'n1', description: 'Scan tests', activity: 'Grep {"pattern":"loadConfig"}', turns: 1, tokens: 900 }) },
            { depth: 2, agent: view({ agentId: 'n2', description: 'Deeper still', status: 'queued', activity: 'queued' }) },
          ],
        },
        o,
      ),
      done: renderAgentCard(
        {
          agent: view({
            status: 'done',
            background: true,
            worktree: { path: '/r/.moat/worktrees/a1b2c3d4', branch: 'moat/a1b2c3d4-fix-it' },
            durationMs: 4200,
            result: 'Changed alpha to ALPHA in a.txt.\n\nNothing else needed changing.',
            changes: { branch: 'moat/a1b2c3d4-fix-it', files: [{ path: 'a.txt', status: 'M', added: 1, removed: 1 }, { path: 'new.txt', status: 'A', added: 3, removed: 0 }] },
          }),
          children: [{ depth: 1, agent: view({ agentId: 'n1', description: 'Scan tests', status: 'done', durationMs: 900, turns: 1 }) }],
        },
        o,
      ),
      failed: renderAgentCard({ agent: view({ status: 'failed', error: 'stopped at its turn limit (10 turns) before it finished', durationMs: 61_000 }), children: [] }, o),
      stopped: renderAgentCard({ agent: view({ status: 'stopped', durationMs: 2500, error: 'stopped before it finished' }), children: [] }, o),
      background: renderAgentCard({ agent: view({ background: true }), children: [] }, o),
    };
    expect(Object.fromEntries(Object.entries(states).map(([k, v]) => [k, v.join('\n')]))).toMatchSnapshot();
    // Live: two lines per agent plus one per nested agent, never more.
    expect(states.queued).toHaveLength(2);
    expect(states.running).toHaveLength(4);
    expect(states.running[1]).toBe('  ⎿  Read(src/config.ts) · 2 turns · 12.3k tokens · 12.5 s');
  });

  test('a long answer and many files are cut, and nothing is wider than the screen', () => {
    const files = Array.from({ length: 12 }, (_, i) => ({ path: `src/f${i}.ts`, status: 'M', added: i, removed: 1 }));
    const lines = renderAgentCard(
      { agent: view({ status: 'done', durationMs: 10, result: Array.from({ length: 20 }, (_, i) => `line ${i} ${'word '.repeat(30)}`).join('\n'), changes: { branch: 'moat/x', files } }), children: [] },
      { width: 50, cwd: '/', now: 0 },
    );
    expect(lines.every((l) => Bun.stringWidth(l) <= 50)).toBe(true);
    expect(lines.join('\n')).toContain('more lines');
    expect(lines.join('\n')).toContain('… 4 more');
    expect(lines.length).toBeLessThan(20);
  });
});

describe('task cards in the transcript', () => {
  test('a foreground agent: queued, then live status with a nested agent, then its answer in scrollback', async () => {
    const input = { description: 'Find the config loader', prompt: 'Where is config loaded?', agent: 'explore' };
    let h!: ReturnType<typeof start>;
    h = start((c) =>
      c.scripts.push([
        { type: 'turn_started', turn: 1 },
        ...taskCall('tu1', input),
        { act: () => c.agentUpdate({ info: info('a1', { parentToolUseId: 'tu1', description: input.description, agent: 'explore', status: 'queued', lastActivity: 'queued' }) }) },
        { gate: 'queued' },
        {
          type: 'subagent_started',
          agentId: 'a1',
          sessionId: 'child-1',
          parentSessionId: 'sess-0001-aaaa',
          parentToolUseId: 'tu1',
          description: input.description,
          agent: 'explore',
          background: false,
          model: 'claude-haiku-4-5',
          cwd: '/work/project',
          tools: ['Read', 'Grep'],
          isolation: 'none',
        },
        {
          act: () =>
            c.agentUpdate({
              info: info('a1', { parentToolUseId: 'tu1', sessionId: 'child-1', description: input.description, agent: 'explore', turns: 2, tokens: 4321, lastActivity: 'Read {"file_path":"/work/project/src/config/load.ts"}' }),
            }),
        },
        {
          type: 'subagent_event',
          agentId: 'a1',
          parentToolUseId: 'tu1',
          event: {
            type: 'subagent_started',
            agentId: 'n1',
            sessionId: 'child-2',
            parentSessionId: 'child-1',
            parentToolUseId: 'tu-inner',
            description: 'Scan the tests',
            background: false,
            model: 'claude-haiku-4-5',
            cwd: '/work/project',
            tools: ['Grep'],
            isolation: 'none',
          },
        },
        { act: () => c.agentUpdate({ info: info('n1', { parentSessionId: 'child-1', parentToolUseId: 'tu-inner', description: 'Scan the tests', lastActivity: 'Grep {"pattern":"loadConfig"}' }) }) },
        { gate: 'running' },
        { type: 'subagent_event', agentId: 'a1', parentToolUseId: 'tu1', event: { type: 'subagent_finished', agentId: 'n1', parentToolUseId: 'tu-inner', status: 'done', stopReason: 'end_turn', result: 'tests use it', turns: 1, usage: ZERO, costUsd: 0.001, durationMs: 800 } },
        { type: 'subagent_finished', agentId: 'a1', parentToolUseId: 'tu1', status: 'done', stopReason: 'end_turn', result: 'Config is loaded in src/config/load.ts by loadConfig().', turns: 3, usage: ZERO, costUsd: 0.0123, durationMs: 4200 },
        { type: 'tool_finished', toolUseId: 'tu1', name: 'Task', isError: false, durationMs: 4300, content: 'Config is loaded in src/config/load.ts by loadConfig().\n---\nSub-agent a1 finished', display: { type: 'text', text: 'agent a1 done' } },
        { type: 'turn_started', turn: 2 },
        { type: 'text_delta', turn: 2, index: 0, text: 'It is in load.ts.' },
        finished('end_turn'),
      ]),
    );
    await h.until('Ask moat');
    await h.type('where is config loaded?');
    await h.press(KEYS.enter);
    await h.until('Queued · waiting for a free slot');
    expect(h.frame()).toContain('● Agent(Find the config loader) · explore');
    expect(h.frame()).not.toContain('Task(');
    h.controller.release('queued');
    await h.until('Read(src/config/load.ts) · 2 turns · 4.3k tokens');
    await h.until('Scan the tests · Grep("loadConfig")');
    expect(stable(h.frame())).toMatchSnapshot('running');
    h.controller.release('running');
    await h.until('It is in load.ts.');
    await waitFor(() => h.app.transcript.run.get().phase === 'idle', 'idle');
    await h.until('Ask moat');
    const frame = h.frame();
    expect(stable(frame)).toMatchSnapshot('done');
    expect(frame).toContain('⎿  Done · 3 turns · 4.3k tokens · $0.0123');
    expect(frame).toContain('Config is loaded in src/config/load.ts by loadConfig().');
    // Nested: one indented line under its parent, in the final card too.
    expect(frame).toContain('● Scan the tests · Done · 1 turn');
    // The answer is printed once (in the card), not again as a separate notice.
    expect(frame.split('loadConfig().').length - 1).toBe(1);
  });

  test('a background worktree agent: started card at once, followed while idle, its result and files when it ends', async () => {
    const input = { description: 'Edit a.txt', prompt: 'EDIT', run_in_background: true };
    const h = start((c) =>
      c.scripts.push([
        { type: 'turn_started', turn: 1 },
        ...taskCall('tu1', input),
        { act: () => c.agentUpdate({ info: info('b1', { parentToolUseId: 'tu1', description: input.description, background: true, worktree: { path: '/r/wt/b1', branch: 'moat/b1-edit-a-txt' } }) }) },
        { type: 'tool_finished', toolUseId: 'tu1', name: 'Task', isError: false, durationMs: 5, content: 'Started background sub-agent b1', display: { type: 'text', text: 'background agent b1' } },
        { type: 'text_delta', turn: 1, index: 0, text: 'Started it.' },
        finished('end_turn'),
      ]),
    );
    await h.until('Ask moat');
    await h.type('edit in the background');
    await h.press(KEYS.enter);
    await h.until('Started it.');
    await waitFor(() => h.app.transcript.run.get().phase === 'idle', 'idle');
    expect(h.frame()).toContain('Running in the background as agent b1 · /agents to follow or stop it');
    // The run is over; the agent goes on and the live area follows it.
    const base = info('b1', { parentToolUseId: 'tu1', description: input.description, background: true, worktree: { path: '/r/wt/b1', branch: 'moat/b1-edit-a-txt' } });
    h.controller.agentUpdate({ info: { ...base, turns: 2, tokens: 2000, lastActivity: 'Edit {"file_path":"/work/project/a.txt","old_string":"alpha"}' } });
    await h.until('Edit(a.txt) · 2 turns · 2.0k tokens');
    h.controller.agentUpdate({
      info: { ...base, status: 'done', finishedAt: Date.now(), turns: 3 },
      outcome: outcome({ result: 'Changed alpha to ALPHA.', changes: { id: 'b1', branch: 'moat/b1-edit-a-txt', path: '/r/wt/b1', commit: 'c0ffee', files: [{ path: 'a.txt', status: 'M', added: 1, removed: 1 }], diffStat: '' } }),
    });
    await h.until('Changed alpha to ALPHA.');
    const frame = h.frame();
    expect(stable(frame)).toMatchSnapshot();
    expect(frame).toContain('Branch moat/b1-edit-a-txt: 1 file +1 -1 · /agents to merge');
    expect(frame).toContain('  M a.txt +1 -1');
    // No longer live: the card moved into scrollback once.
    expect(frame.split('Changed alpha to ALPHA.').length - 1).toBe(1);
    expect(frame).not.toContain('Edit(a.txt) · 2 turns');
  });

  test('many running agents: at most four cards live, the rest in one line', async () => {
    const h = start();
    await h.until('Ask moat');
    for (let i = 1; i <= 7; i++) h.controller.agentUpdate({ info: info(`g${i}`, { background: true, description: `Job ${i}` }) });
    await h.until('3 more sub-agents running · /agents lists them');
    const frame = h.frame();
    expect(frame.match(/● Agent\(Job \d\)/g)).toHaveLength(4);
    expect(frame).not.toContain('Job 5');
  });

  test("a sub-agent's permission request is answered in the same dialog, which names the agent", async () => {
    const h = start((c) =>
      c.scripts.push([
        { type: 'turn_started', turn: 1 },
        ...taskCall('tu1', { description: 'Run the tests', prompt: 'npm test' }),
        { act: () => c.agentUpdate({ info: info('p1', { parentToolUseId: 'tu1', description: 'Run the tests' }) }) },
        {
          type: 'subagent_event',
          agentId: 'p1',
          parentToolUseId: 'tu1',
          event: {
            type: 'permission_request',
            requestId: 'sub-req-1',
            toolUseId: 'child-tu',
            toolName: 'Bash',
            intent: { ruleName: 'Bash', subject: 'npm test', paths: [], summary: 'Run npm test' },
          },
        },
        { awaitPermission: 'sub-req-1' },
        { type: 'subagent_finished', agentId: 'p1', parentToolUseId: 'tu1', status: 'done', stopReason: 'end_turn', result: 'all green', turns: 2, usage: ZERO, costUsd: 0, durationMs: 100 },
        { type: 'tool_finished', toolUseId: 'tu1', name: 'Task', isError: false, durationMs: 100, content: 'all green' },
        finished('end_turn'),
      ]),
    );
    await h.until('Ask moat');
    await h.type('test it');
    await h.press(KEYS.enter);
    await h.until('Asked by sub-agent: Run the tests');
    expect(h.frame()).toContain('Run a command');
    expect(h.frame()).toContain('npm test');
    await h.press('1');
    await h.until('all green');
    expect(h.controller.decisions).toEqual([{ requestId: 'sub-req-1', decision: { behavior: 'allow' } }]);
  });
});

describe('/agents', () => {
  const worktree = { id: 'b1', branch: 'moat/b1-edit-a-txt', description: 'Edit a.txt', state: 'ready' as const, files: [{ path: 'a.txt', status: 'M', added: 1, removed: 1 }] };

  test('lists definitions, agents and worktrees; the picker stops a running agent', async () => {
    const h = start((c) => {
      c.agentList = [
        info('r1', { description: 'Long refactor', background: true, lastActivity: 'Bash {"command":"npm test"}', turns: 4 }),
        info('b1', { description: 'Edit a.txt', status: 'done', finishedAt: Date.now(), worktree: { path: '/r/wt/b1', branch: 'moat/b1-edit-a-txt' } }),
      ];
      c.worktreeList = [worktree];
    });
    await h.until('Ask moat');
    await h.type('/agents');
    await h.press(KEYS.enter);
    await h.until('choose one to stop it');
    expect(stable(h.frame())).toMatchSnapshot();
    // First item: stop r1.
    await h.press(KEYS.enter);
    await h.until('Stopping sub-agent r1 (Long refactor)');
    expect(h.controller.actions).toEqual(['stop r1']);
  });

  test('an agent that ended between the listing and the stop: the refused stop_subagent says it already ended', async () => {
    const h = start((c) => {
      c.agentList = [info('r1', { description: 'Long refactor', background: true, turns: 4 })];
      c.endsBeforeStop = true;
    });
    await h.until('Ask moat');
    await h.type('/agents stop r1');
    await h.press(KEYS.enter);
    await h.until('Sub-agent r1 already ended.');
    expect(h.controller.actions).toEqual(['stop r1']);
    expect(h.frame()).not.toContain('Stopping sub-agent r1');
  });

  test('a finished worktree agent: diff stat, then merge from the picker', async () => {
    const h = start((c) => {
      c.worktreeList = [worktree];
    });
    await h.until('Ask moat');
    await h.type('/agents');
    await h.press(KEYS.enter);
    await h.until('b1  Edit a.txt');
    await h.press(KEYS.enter);
    await h.until('Worktree b1 · moat/b1-edit-a-txt · ready · 1 file +1 -1');
    await h.press(KEYS.enter);
    await h.until('Changes of worktree b1');
    await h.type('/agents');
    await h.press(KEYS.enter);
    await h.until('b1  Edit a.txt');
    await h.press(KEYS.enter);
    await h.until('Merge into the current branch');
    await h.press(KEYS.down);
    await h.press(KEYS.enter);
    await h.until('Merged moat/b1-edit-a-txt into the current branch.');
    expect(h.frame()).toContain('Remove the worktree and its branch with /agents rm b1.');
    expect(h.controller.actions).toEqual(['diff b1', 'merge b1']);
  });

  test('subcommands: a conflict says how to finish or undo; rm needs --force for unmerged work; bad usage', async () => {
    const h = start((c) => {
      c.worktreeList = [worktree];
      c.mergeResult = { kind: 'conflict', files: ['a.txt'] };
    });
    await h.until('Ask moat');
    await h.type('/agents merge b1');
    await h.press(KEYS.enter);
    await h.until('Merging moat/b1-edit-a-txt stopped with conflicts in:');
    expect(h.frame()).toContain('git merge --abort');
    await h.type('/agents rm b1 --force');
    await h.press(KEYS.enter);
    await h.until('Removed worktree b1 and branch moat/b1-edit-a-txt.');
    await h.type('/agents merge nope');
    await h.press(KEYS.enter);
    await h.until("no moat worktree 'nope' in this repository");
    await h.type('/agents frobnicate x');
    await h.press(KEYS.enter);
    await h.until('Usage: /agents [stop|diff|merge|rm <id>]');
    await h.type('/agents stop zz');
    await h.press(KEYS.enter);
    await h.until('No running sub-agent zz.');
    expect(h.controller.actions).toEqual(['merge b1', 'rm b1 --force']);
  });

  test('/help lists /agents', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('/help');
    await h.press(KEYS.enter);
    await h.until('/agents [stop|diff|merge|rm <id>]');
  });
});
