/**
 * The task tools in process: real sessions, real provider against the fake
 * server (responses routed per conversation, since sub-agents run in
 * parallel), real tools, real SQLite and real temporary git repositories.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentSession,
  PermissionBroker,
  SubagentManager,
  type AgentCatalog,
  type AgentEvent,
  type AgentSettings,
  type SubagentDefinition,
  type SubagentManagerOptions,
} from '../../../src/agent/index.ts';
import { costUsd } from '../../../src/agent/index.ts';
import { printRun } from '../../../src/print/index.ts';
import { OutputLine } from '../../../src/print/schema.ts';
import { createAnthropicProvider } from '../../../src/providers/index.ts';
import { openStore, type Store } from '../../../src/store/index.ts';
import { builtinTools, parseRuleList, ToolRegistry } from '../../../src/tools/index.ts';
import { testSettings } from '../../support/agent-settings.ts';
import { firstUserText, reply, startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic.ts';
import { branches, gitOut, makeRepo, status } from './temp-repo.ts';
import { tempDir } from '../../support/temp.ts';

let server: FakeAnthropic;
let store: Store;
let managers: SubagentManager[] = [];

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  store = openStore(join(tempDir('moat-task-db-'), 'moat.db'));
  server.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.shutdown()));
  managers = [];
  expect(server.remaining()).toBe(0);
  store.close();
});

// Sub-agent runs spawn git and bash: a longer bash timeout than the default fixture.
const settings = (cwd: string, over: Partial<AgentSettings> = {}) => testSettings(cwd, { bashTimeoutMs: 60_000, ...over });

function open(cwd: string, over: Partial<AgentSettings> = {}, managerOpts: SubagentManagerOptions = {}, catalog?: AgentCatalog, broker?: PermissionBroker) {
  const manager = new SubagentManager(managerOpts);
  managers.push(manager);
  const session = AgentSession.open({
    provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
    registry: new ToolRegistry(builtinTools()),
    store,
    settings: settings(cwd, over),
    subagents: { manager, ...(catalog ? { catalog } : {}) },
    ...(broker ? { ask: broker.ask } : {}),
  });
  return { session, manager };
}

async function collect(it: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

interface Body {
  tools: { name: string }[];
  messages: { role: string; content: { type: string; text?: string; content?: unknown; is_error?: boolean; tool_use_id?: string }[] }[];
}
/** The requests of one conversation, identified by its first user message. */
const conversation = (marker: string) => server.requests.map((r) => r.body as Body).filter((b) => firstUserText(b).includes(marker));
const toolNames = (b: Body) => b.tools.map((t) => t.name);
const lastResults = (b: Body) =>
  b.messages
    .at(-1)!
    .content.filter((c) => c.type === 'tool_result')
    .map((c) => ({
      text: typeof c.content === 'string' ? c.content : (c.content as { text?: string }[]).map((p) => p.text ?? '').join('\n'),
      isError: c.is_error === true,
    }));
const finishedOf = (events: AgentEvent[]) => events.find((e) => e.type === 'run_finished') as Extract<AgentEvent, { type: 'run_finished' }>;

describe('task (foreground)', () => {
  test('a sub-agent with tools [read, grep] cannot write: the call is refused, not offered', async () => {
    const repo = makeRepo({ 'a.txt': 'alpha\n' });
    server.route('PARENT-RO', reply().toolUse('Task', { description: 'look around', prompt: 'CHILD-RO: read a.txt', tools: ['read', 'grep'] }), reply().text('parent done'));
    server.route('CHILD-RO', reply().toolUse('Write', { file_path: 'x.txt', content: 'x' }), reply().text('I could not write.'));
    const { session } = open(repo, { permissionMode: 'bypassPermissions' });
    const events = await collect(session.run('PARENT-RO', new AbortController().signal));
    expect(finishedOf(events)).toMatchObject({ stopReason: 'end_turn', result: 'parent done' });

    const child = conversation('CHILD-RO');
    expect(child.length).toBe(2);
    expect(toolNames(child[0]!)).toEqual(['Read', 'Grep']);
    expect(lastResults(child[1]!)).toEqual([{ text: expect.stringContaining('Unknown tool: Write') as unknown as string, isError: true }]);
    expect(existsSync(join(repo, 'x.txt'))).toBe(false);

    const [result] = lastResults(conversation('PARENT-RO')[1]!);
    expect(result!.isError).toBe(false);
    expect(result!.text).toContain('I could not write.');
    // Read-only tools: no worktree by default.
    expect(result!.text).toContain('It worked directly in your working folder');
    expect(branches(repo)).toEqual(['main']);
  });

  test('the child has its own session (parent id set), history and events; cost rolls up into the parent run', async () => {
    const repo = makeRepo({ 'a.txt': 'alpha\n' });
    server.route('PARENT-EV', reply().toolUse('Task', { description: 'count', prompt: 'CHILD-EV: how many lines?', tools: ['read'] }, { id: 'toolu_task_1' }), reply().text('2 lines'));
    server.route('CHILD-EV', reply().toolUse('Read', { file_path: 'a.txt' }), reply().text('one line').usage({ input: 1000, output: 100 }));
    const { session } = open(repo);
    const events = await collect(session.run('PARENT-EV', new AbortController().signal));

    const started = events.find((e) => e.type === 'subagent_started');
    const ended = events.find((e) => e.type === 'subagent_finished');
    expect(started).toMatchObject({ parentSessionId: session.id, parentToolUseId: 'toolu_task_1', description: 'count', isolation: 'none', tools: ['Read'], background: false });
    expect(ended).toMatchObject({ status: 'done', stopReason: 'end_turn', result: 'one line', turns: 2 });
    const agentId = (started as { agentId: string }).agentId;
    const wrapped = events.filter((e) => e.type === 'subagent_event');
    expect(wrapped.every((e) => e.type === 'subagent_event' && e.agentId === agentId && e.parentToolUseId === 'toolu_task_1')).toBe(true);
    expect(wrapped.map((e) => (e.type === 'subagent_event' ? e.event.type : '')).filter((t) => t === 'tool_finished' || t === 'run_finished')).toEqual(['tool_finished', 'run_finished']);

    const childRow = store.sessions.children(session.id);
    expect(childRow.map((r) => [r.parentId, r.agentId])).toEqual([[session.id, agentId]]);
    // Its own history: the prompt alone, nothing of the parent's conversation.
    expect(store.messages.list(childRow[0]!.id).map((m) => m.message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(conversation('CHILD-EV')[0]!.messages.length).toBe(1);

    const small = costUsd('claude-sonnet-4-5', { inputTokens: 10, outputTokens: 5, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
    const big = costUsd('claude-sonnet-4-5', { inputTokens: 1000, outputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
    const fin = finishedOf(events);
    expect(fin.costUsd).toBeCloseTo(3 * small + big, 10);
    expect(fin.usage.inputTokens).toBe(1030);
    expect(fin.turns).toBe(2);
  });

  test('a sub-agent gets task only when listed, and never beyond the depth limit', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    server.route('PARENT-D', reply().toolUse('Task', { description: 'd', prompt: 'CHILD-DEFAULT' }), reply().toolUse('Task', { description: 'd', prompt: 'CHILD-NESTING', tools: ['read', 'task'] }), reply().text('ok'));
    server.route('CHILD-DEFAULT', reply().text('default child'));
    server.route('CHILD-NESTING', reply().text('nesting child'));
    const { session } = open(repo, {}, { maxDepth: 2 });
    await collect(session.run('PARENT-D', new AbortController().signal));
    expect(toolNames(conversation('PARENT-D')[0]!)).toContain('Task');
    const byDefault = toolNames(conversation('CHILD-DEFAULT')[0]!);
    expect(byDefault.filter((n) => n.startsWith('Task'))).toEqual([]);
    expect(byDefault).toContain('Bash');
    expect(toolNames(conversation('CHILD-NESTING')[0]!)).toEqual(['Read', 'Task', 'TaskStatus', 'TaskResult']);

    // With a limit of one level, asking for task is refused with the reason.
    server.route('PARENT-LIMIT', reply().toolUse('Task', { description: 'd', prompt: 'NEVER-RUNS', tools: ['task'] }), reply().text('ok'));
    const limited = open(repo, {}, { maxDepth: 1 });
    await collect(limited.session.run('PARENT-LIMIT', new AbortController().signal));
    const [refused] = lastResults(conversation('PARENT-LIMIT')[1]!);
    expect(refused).toEqual({ isError: true, text: expect.stringContaining('sub-agents nest at most 1 level deep') as unknown as string });
    expect(conversation('NEVER-RUNS')).toEqual([]);
  });

  test('a writing sub-agent works in its own worktree; the parent gets the branch and the changed files', async () => {
    const repo = makeRepo({ 'a.txt': 'alpha\n' });
    server.route('PARENT-WT', reply().toolUse('Task', { description: 'Add notes', prompt: 'CHILD-WT: write notes.md' }), reply().text('done'));
    server.route('CHILD-WT', reply().toolUse('Write', { file_path: 'notes.md', content: 'one\ntwo\n' }), reply().text('wrote notes.md'));
    const { session } = open(repo, { permissionMode: 'acceptEdits' });
    const events = await collect(session.run('PARENT-WT', new AbortController().signal));
    const started = events.find((e) => e.type === 'subagent_started') as Extract<AgentEvent, { type: 'subagent_started' }>;
    expect(started.isolation).toBe('worktree');
    expect(started.cwd).toBe(join(repo, '.moat', 'worktrees', started.agentId));
    const branch = started.worktree!.branch;
    expect(branch).toBe(`moat/${started.agentId}-add-notes`);

    const [result] = lastResults(conversation('PARENT-WT')[1]!);
    expect(result!.text).toContain(`committed on branch ${branch}`);
    expect(result!.text).toContain('A notes.md (+2 -0)');
    expect(result!.text).toContain(`moat worktrees merge ${started.agentId}`);
    // The user's tree is untouched; the branch holds exactly the agent's edit.
    expect(existsSync(join(repo, 'notes.md'))).toBe(false);
    expect(status(repo)).toBe('');
    expect(gitOut(repo, ['diff', '--name-only', 'main', branch])).toBe('notes.md');
    expect(gitOut(repo, ['log', '-1', '--format=%s', branch])).toBe('Add notes');
    const ended = events.find((e) => e.type === 'subagent_finished') as Extract<AgentEvent, { type: 'subagent_finished' }>;
    expect(ended.changes?.files).toEqual([{ path: 'notes.md', status: 'A', added: 2, removed: 0 }]);
  });

  test('aborting the parent aborts its foreground sub-agent: no orphan process, no stray worktree', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const marker = `sleep 29.${process.pid}`;
    server.route('PARENT-AB', reply().toolUse('Task', { description: 'wait', prompt: 'CHILD-AB', isolation: 'worktree' }));
    server.route('CHILD-AB', reply().toolUse('Bash', { command: marker }));
    const { session } = open(repo, { allow: parseRuleList(['Bash(sleep:*)']) });
    const controller = new AbortController();
    const running = collect(session.run('PARENT-AB', controller.signal));
    const alive = () => Bun.spawnSync(['pgrep', '-f', marker]).exitCode === 0;
    const end = performance.now() + 10_000;
    while (!alive()) {
      if (performance.now() > end) throw new Error('the sub-agent never started its command');
      await Bun.sleep(10);
    }
    expect(existsSync(join(repo, '.moat', 'worktrees'))).toBe(true);
    controller.abort();
    const events = await running;
    expect(finishedOf(events).stopReason).toBe('aborted');
    expect(events.find((e) => e.type === 'subagent_finished')).toMatchObject({ status: 'stopped', stopReason: 'aborted' });
    expect(alive()).toBe(false);
    expect(gitOut(repo, ['worktree', 'list']).split('\n').length).toBe(1);
    expect(branches(repo)).toEqual(['main']);
    expect(status(repo)).toBe('');
  });

  test('outside a git repository: worktree isolation is refused when asked for, and falls back to none by default', async () => {
    const plain = tempDir('moat-plain-');
    server.route(
      'PARENT-NOGIT',
      reply().toolUse('Task', { description: 'd', prompt: 'NEVER', isolation: 'worktree' }),
      reply().toolUse('Task', { description: 'd', prompt: 'CHILD-NOGIT' }),
      reply().text('ok'),
    );
    server.route('CHILD-NOGIT', reply().text('worked here'));
    const { session } = open(plain);
    await collect(session.run('PARENT-NOGIT', new AbortController().signal));
    const parent = conversation('PARENT-NOGIT');
    expect(lastResults(parent[1]!)).toEqual([{ isError: true, text: expect.stringContaining(`isolation "worktree" is not possible: ${plain} is not inside a git repository`) as unknown as string }]);
    const [fallback] = lastResults(parent[2]!);
    expect(fallback!.isError).toBe(false);
    expect(fallback!.text).toContain('It ran without worktree isolation');
    expect(conversation('NEVER')).toEqual([]);
  });
});

describe('permissions', () => {
  test('a sub-agent asks the user through its parent’s stream; once the parent is idle, nobody can be asked and the call is denied', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    server.route(
      'PARENT-ASK',
      reply().toolUse('Task', { description: 'ask', prompt: 'CHILD-ASK', isolation: 'none' }),
      reply().toolUse('Task', { description: 'late', prompt: 'CHILD-LATE', isolation: 'none', run_in_background: true }),
      reply().text('parent idle now'),
    );
    server.route('CHILD-ASK', reply().toolUse('Write', { file_path: 'asked.txt', content: 'yes\n' }), reply().text('wrote it'));
    // The background child waits until the parent's run is over before it writes.
    server.route('CHILD-LATE', reply().wait(300).toolUse('Write', { file_path: 'late.txt', content: 'no\n' }), reply().text('could not'));
    const broker = new PermissionBroker();
    const { session, manager } = open(repo, {}, {}, undefined, broker);
    const asked: string[] = [];
    for await (const e of session.run('PARENT-ASK', new AbortController().signal)) {
      if (e.type === 'subagent_event' && e.event.type === 'permission_request') {
        asked.push(e.event.toolName);
        broker.respond(e.event.requestId, { behavior: 'allow' });
      }
    }
    expect(asked).toEqual(['Write']);
    expect(readFileSync(join(repo, 'asked.txt'), 'utf8')).toBe('yes\n');

    const late = manager.list().find((a) => a.description === 'late')!;
    const outcome = await manager.outcome(late.agentId)!;
    expect(outcome.result).toBe('could not');
    expect(lastResults(conversation('CHILD-LATE')[1]!)[0]).toEqual({ isError: true, text: expect.stringContaining('Nobody could be asked') as unknown as string });
    expect(existsSync(join(repo, 'late.txt'))).toBe(false);
    expect(broker.pendingIds()).toEqual([]);
  });
});

describe('nesting', () => {
  test('a sub-agent allowed task starts its own; events nest, and stream-json tags each line with its own agent', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    server.route('PARENT-NEST', reply().toolUse('Task', { description: 'outer', prompt: 'CHILD-NEST', tools: ['read', 'task'] }, { id: 'toolu_outer' }), reply().text('top done'));
    server.route('CHILD-NEST', reply().toolUse('Task', { description: 'inner', prompt: 'INNER-NEST', tools: ['read'] }, { id: 'toolu_inner' }), reply().text('child done'));
    server.route('INNER-NEST', reply().text('grandchild done'));
    const { session } = open(repo, {}, { maxDepth: 2 });
    const lines: string[] = [];
    const finished = await printRun(session.run('PARENT-NEST', new AbortController().signal), {
      format: 'stream-json',
      verbose: false,
      color: false,
      init: { apiKeySource: 'test', version: '0.0.0' },
      out: (l) => lines.push(l),
      err: () => {},
    });
    expect(finished.result).toBe('top done');
    // The grandchild is at the depth limit: no task tools for it.
    expect(toolNames(conversation('INNER-NEST')[0]!)).toEqual(['Read']);

    const [child] = store.sessions.children(session.id);
    const [grandchild] = store.sessions.children(child!.id);
    expect(grandchild!.parentId).toBe(child!.id);

    const parsed = lines.map((l) => OutputLine.parse(JSON.parse(l)) as { type: string; subtype?: string; session_id: string; agent_id?: string; parent_id?: string; parent_tool_use_id: string | null });
    const starts = parsed.filter((l) => l.subtype === 'subagent_started').map((l) => [l.agent_id, l.parent_id, l.parent_tool_use_id, l.session_id]);
    expect(starts).toEqual([
      [child!.agentId, session.id, 'toolu_outer', child!.id],
      [grandchild!.agentId, child!.id, 'toolu_inner', grandchild!.id],
    ]);
    const grandAssistant = parsed.filter((l) => l.type === 'assistant' && l.agent_id === grandchild!.agentId);
    expect(grandAssistant.map((l) => [l.session_id, l.parent_id, l.parent_tool_use_id])).toEqual([[grandchild!.id, child!.id, 'toolu_inner']]);
    expect(parsed.filter((l) => l.type === 'result').length).toBe(1);
    expect(parsed.at(-1)).toMatchObject({ type: 'result', session_id: session.id });
  });
});

describe('agent definitions', () => {
  const defs: SubagentDefinition[] = [
    { name: 'explore', description: 'Searches the code.', tools: ['Read', 'Grep', 'WebSearch'], model: 'haiku', permissionMode: 'plan', systemPrompt: 'EXPLORE-INSTRUCTIONS' },
    { name: 'yolo', description: 'Asks for more than it may have.', permissionMode: 'bypassPermissions', disallowedTools: ['Bash'], systemPrompt: 'YOLO' },
  ];
  const catalog: AgentCatalog = { get: (n) => defs.find((d) => d.name === n), list: () => defs };

  test('a definition sets tools, model, prompt and a stricter mode; it never loosens the parent’s mode', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    server.route(
      'PARENT-DEF',
      reply().toolUse('Task', { description: 'find', prompt: 'CHILD-EXPLORE', agent: 'explore' }),
      reply().toolUse('Task', { description: 'edit', prompt: 'CHILD-YOLO', agent: 'yolo', isolation: 'none' }),
      reply().toolUse('Task', { description: 'x', prompt: 'NEVER', agent: 'nope' }),
      reply().text('ok'),
    );
    server.route('CHILD-EXPLORE', reply().text('found'));
    server.route('CHILD-YOLO', reply().toolUse('Write', { file_path: 'y.txt', content: 'y' }), reply().text('tried'));
    const { session } = open(repo, { permissionMode: 'default' }, {}, catalog);
    const events = await collect(session.run('PARENT-DEF', new AbortController().signal));

    expect(toolNames(conversation('PARENT-DEF')[0]!)).toContain('Task');
    const taskSpec = (conversation('PARENT-DEF')[0]!.tools as { name: string; description?: string }[]).find((t) => t.name === 'Task')!;
    expect(taskSpec.description).toContain('- explore: Searches the code.');

    const explore = conversation('CHILD-EXPLORE')[0]! as Body & { model: string; system: unknown };
    expect(toolNames(explore)).toEqual(['Read', 'Grep']);
    expect(explore.model).toBe('claude-haiku-4-5');
    expect(JSON.stringify(explore.system)).toContain('EXPLORE-INSTRUCTIONS');
    const started = events.filter((e): e is Extract<AgentEvent, { type: 'subagent_started' }> => e.type === 'subagent_started');
    expect(started.map((e) => [e.agent, e.isolation])).toEqual([
      ['explore', 'none'],
      ['yolo', 'none'],
    ]);
    const childModes = store.sessions.children(session.id).map((r) => r.permissionMode);
    // plan is stricter than default: taken. bypassPermissions is looser: refused, the parent's default stays.
    expect(childModes).toEqual(['plan', 'default']);
    expect(toolNames(conversation('CHILD-YOLO')[0]!)).not.toContain('Bash');
    expect(lastResults(conversation('CHILD-YOLO')[1]!)[0]!.isError).toBe(true);
    expect(existsSync(join(repo, 'y.txt'))).toBe(false);

    const [unknown] = lastResults(conversation('PARENT-DEF')[3]!);
    expect(unknown).toEqual({ isError: true, text: 'There is no agent named "nope". Available agents: explore, yolo. Leave agent out for a general-purpose sub-agent.' });
  });

  test("Claude Code's subagent_type names a definition as agent does; the two naming different ones is an error the model can fix", async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    server.route(
      'PARENT-CC',
      reply().toolUse('Task', { description: 'find', prompt: 'CHILD-CC', subagent_type: 'explore' }),
      reply().toolUse('Task', { description: 'x', prompt: 'NEVER', agent: 'explore', subagent_type: 'yolo' }),
      reply().text('ok'),
    );
    server.route('CHILD-CC', reply().text('found'));
    const { session } = open(repo, { permissionMode: 'default' }, {}, catalog);
    const events = await collect(session.run('PARENT-CC', new AbortController().signal));
    const started = events.filter((e): e is Extract<AgentEvent, { type: 'subagent_started' }> => e.type === 'subagent_started');
    expect(started.map((e) => e.agent)).toEqual(['explore']);
    expect((conversation('CHILD-CC')[0]! as Body & { model: string }).model).toBe('claude-haiku-4-5');
    expect(lastResults(conversation('PARENT-CC')[2]!)[0]).toEqual({ isError: true, text: 'agent "explore" and subagent_type "yolo" name different agents: give one of them.' });
  });
});

describe('task (background)', () => {
  test('background agents queue beyond max_concurrent_agents; task_result waits for all of them', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    server.route(
      'PARENT-BG',
      reply()
        .toolUse('Task', { description: 'first', prompt: 'CHILD-BG-1', run_in_background: true, tools: ['read'] })
        .toolUse('Task', { description: 'second', prompt: 'CHILD-BG-2', run_in_background: true, tools: ['read'] }),
      reply().toolUse('TaskStatus', {}),
      reply().toolUse('TaskResult', {}),
      reply().text('all collected'),
    );
    server.route('CHILD-BG-1', reply().wait(150).text('answer one'));
    server.route('CHILD-BG-2', reply().wait(150).text('answer two'));
    const { session, manager } = open(repo, {}, { maxConcurrent: 1 });
    let peak = 0;
    manager.subscribe(() => {
      peak = Math.max(peak, manager.list().filter((a) => a.status === 'running').length);
    });
    const events = await collect(session.run('PARENT-BG', new AbortController().signal));
    expect(finishedOf(events).result).toBe('all collected');
    expect(peak).toBe(1);

    const parent = conversation('PARENT-BG');
    const started = lastResults(parent[1]!);
    expect(started.map((r) => r.text)).toEqual([expect.stringMatching(/^Started background sub-agent [0-9a-f]{8} \("first"\)/), expect.stringMatching(/^Started background sub-agent [0-9a-f]{8} \("second"\)/)] as unknown as string[]);
    const statusText = lastResults(parent[2]!)[0]!.text.split('\n');
    // One runs, the other waits for the slot.
    expect(statusText.map((l) => l.split('  ')[1]).sort()).toEqual(['queued', 'running']);
    const collected = lastResults(parent[3]!)[0]!.text;
    expect(collected).toContain('answer one');
    expect(collected).toContain('answer two');
    expect(manager.list().map((a) => a.status)).toEqual(['done', 'done']);
  });

  test('a sub-agent spending past the parent budget stops the whole tree', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    server.route('PARENT-BUDGET', reply().toolUse('Task', { description: 'spend', prompt: 'CHILD-BUDGET', tools: ['read'] }));
    // $3 per million input tokens: the child's first turn alone is over the $0.50 budget.
    server.route('CHILD-BUDGET', reply().toolUse('Read', { file_path: 'a.txt' }).usage({ input: 1_000_000, output: 0 }));
    const { session } = open(repo, { maxBudgetUsd: 0.5 });
    const events = await collect(session.run('PARENT-BUDGET', new AbortController().signal));
    expect(events.find((e) => e.type === 'subagent_finished')).toMatchObject({ status: 'failed', stopReason: 'budget' });
    const fin = finishedOf(events);
    expect(fin.stopReason).toBe('budget');
    expect(fin.costUsd).toBeGreaterThan(3);
    // Neither asked the model again once the budget was gone.
    expect(conversation('CHILD-BUDGET').length).toBe(1);
    expect(conversation('PARENT-BUDGET').length).toBe(1);
  });

  test('stopping a background agent through the manager commits what it did', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const marker = `sleep 28.${process.pid}`;
    server.route('PARENT-STOP', reply().toolUse('Task', { description: 'Long job', prompt: 'CHILD-STOP', run_in_background: true }), reply().text('started it'));
    server.route('CHILD-STOP', reply().toolUse('Write', { file_path: 'partial.txt', content: 'half\n' }), reply().toolUse('Bash', { command: marker }));
    const { session, manager } = open(repo, { permissionMode: 'acceptEdits', allow: parseRuleList(['Bash(sleep:*)']) });
    const events = await collect(session.run('PARENT-STOP', new AbortController().signal));
    expect(finishedOf(events).result).toBe('started it');
    const [agent] = manager.list();
    // The parent's run is over; the background agent is not.
    const end = performance.now() + 10_000;
    while (Bun.spawnSync(['pgrep', '-f', marker]).exitCode !== 0) {
      if (performance.now() > end) throw new Error('the sub-agent never started its command');
      await Bun.sleep(10);
    }
    expect(manager.get(agent!.agentId)?.status).toBe('running');
    expect(manager.stop(agent!.agentId)).toBe(true);
    const outcome = await manager.outcome(agent!.agentId)!;
    expect(outcome).toMatchObject({ status: 'stopped', stopReason: 'aborted' });
    expect(outcome.changes?.files.map((f) => f.path)).toEqual(['partial.txt']);
    expect(gitOut(repo, ['log', '-1', '--format=%s', outcome.changes!.branch])).toBe('Long job');
    expect(Bun.spawnSync(['pgrep', '-f', marker]).exitCode).not.toBe(0);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('a\n');
    expect(status(repo)).toBe('');
  });
});
