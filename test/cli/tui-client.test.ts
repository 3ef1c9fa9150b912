/**
 * The real TUI client in process: a real store, real config files in a
 * temp repo, the provider pointed at the fake server. What the UI asks of it
 * (skills, model and mode, permission rules) must reach the open session and
 * the files, not just a shared settings object.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSettings, RememberRule } from '../../src/agent/index.ts';
import { createTuiClient, type StartedTuiClient, type TuiClientDeps } from '../../src/cli/tui-client.ts';
import { assembleSession } from '../../src/cli/open-session.ts';
import { loadConfig, projectTrust, trustProject, type Env, type LoadedConfig } from '../../src/config/index.ts';
import { BUILTIN_PROVIDERS, ModelRouter } from '../../src/providers/index.ts';
import type { Skill } from '../../src/skills/index.ts';
import { parseRuleList } from '../../src/tools/index.ts';
import type { SessionEvent } from '../../src/protocol/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import type { SubagentUpdate } from '../../src/tui/index.ts';
import { tempDir } from '../support/temp.ts';
import { waitGone } from '../support/process-gone.ts';
import { expandSkill, runShell } from '../support/tui-ops.ts';
import { EVERYTHING_JS } from '../mcp/support.ts';

let server: FakeAnthropic;
let root: string;
let controller: StartedTuiClient | undefined;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await controller?.lifecycle.shutdown();
  await server.close();
});
beforeEach(async () => {
  await controller?.lifecycle.shutdown();
  controller = undefined;
  root = tempDir('moat-tui-ctl-');
  mkdirSync(join(root, '.git'));
  server.requests.length = 0;
});

const REVIEW: Skill = {
  name: 'review',
  description: 'review a file',
  args: [{ name: 'file', required: true }],
  body: 'Review ${file} for bugs.',
  source: 'project',
  file: '/x/review/SKILL.md',
};
/** A custom command whose !`cmd` line an ask rule can catch. */
const ECHO: Skill = { name: 'echo', description: 'echoes', args: [], body: 'Said: !`echo from-the-line`', source: 'project', file: '/x/commands/echo.md' };
/** A custom command with `model`: its run uses that model, the next one the session's again. */
const QUICK: Skill = { name: 'quick', description: 'quick answer', args: [], body: 'Answer quickly: $ARGUMENTS', source: 'project', file: '/x/commands/quick.md', model: 'haiku' };

/** The router every test controller talks through: the fake server as Anthropic's API. */
function fakeRouter(): ModelRouter {
  return new ModelRouter({ providers: { ...BUILTIN_PROVIDERS, anthropic: { ...BUILTIN_PROVIDERS['anthropic']!, baseUrl: server.url } }, env: { ANTHROPIC_API_KEY: 'k' } });
}

/** The session assembly the CLI would build for this folder (open-session.ts), with the WebAssembly tools left out. */
function assemble(settings: AgentSettings, loaded: LoadedConfig, env: Env, router: ModelRouter, remember: () => RememberRule, persist = true) {
  return assembleSession({ loaded, settings, router, env, skills: [REVIEW, QUICK, ECHO], persist, warn: () => {}, interactive: true, answers: { remember: (rule, scope) => remember()(rule, scope) } });
}

async function make(projectToml?: string, router: ModelRouter = fakeRouter()): Promise<{ c: StartedTuiClient; settings: AgentSettings; projectFile: string }> {
  const projectFile = join(root, '.moat', 'config.toml');
  if (projectToml !== undefined) {
    mkdirSync(join(root, '.moat'), { recursive: true });
    writeFileSync(projectFile, projectToml);
  }
  const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'home', '.config') };
  // The user trusts this project: its allow rules apply (untrusted, only its deny rules would).
  trustProject(root, join(root, 'home', '.config', 'moat'));
  const loaded = loadConfig({ cwd: root, env });
  const settings = testSettings(root, {
    allow: parseRuleList(loaded.config.permissions.allow),
    deny: parseRuleList(loaded.config.permissions.deny),
    ask: parseRuleList(loaded.config.permissions.ask ?? []),
    home: env.HOME,
  });
  let started: StartedTuiClient | undefined;
  const assembly = await assemble(settings, loaded, env, router, () => started!.remember);
  const c = createTuiClient({ assembly, router, settings, loaded, logFile: join(root, 'tui.log'), skills: [REVIEW, QUICK, ECHO] });
  started = c;
  controller = c;
  return { c, settings, projectFile };
}

/** A controller on the folder as its files leave it (no trust given), talking to the fake server; `extra` adds to its deps. */
async function plainController(extra: Partial<TuiClientDeps> = {}, persist = true) {
  const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'home', '.config') };
  const loaded = loadConfig({ cwd: root, env });
  const settings = testSettings(root, { home: env.HOME });
  const router = fakeRouter();
  let started: StartedTuiClient | undefined;
  const assembly = await assemble(settings, loaded, env, router, () => started!.remember, persist);
  const c = createTuiClient({ assembly, router, settings, loaded, logFile: join(root, 'tui.log'), ...extra });
  started = c;
  controller = c;
  return { c, loaded, assembly };
}

/** `/permissions remove`: as the UI does it, a rule the listing shows is removed by the `remove_rule` operation. */
function removeRule(c: StartedTuiClient, rule: string, behavior: 'allow' | 'deny'): boolean {
  const listed = c.queries.permissionRules().some((r) => r.rule === rule && r.behavior === behavior);
  if (listed) c.session.submit({ type: 'remove_rule', rule, behavior });
  return listed;
}

async function drain(it: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const out: SessionEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test("a custom command's model is used for its run only", async () => {
  const { c } = await make();
  server.script(reply().text('fast'), reply().text('normal'));
  const expanded = await expandSkill(c, 'quick', 'why?');
  expect(expanded?.prompt).toContain('Answer quickly: why?');
  expect(expanded?.model).toBe('claude-haiku-4-5');
  await drain(c.session.run({ text: expanded!.prompt, attachments: [], shellContext: [], model: expanded!.model! }, new AbortController().signal));
  await drain(c.session.run({ text: 'next', attachments: [], shellContext: [] }, new AbortController().signal));
  expect(server.requests.map((r) => (r.body as { model: string }).model)).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
});

test("a custom command's !`cmd` line that must be asked is asked as a Bash call is: its events reach the TUI, the answer decides, aborting withdraws the question", async () => {
  const { c } = await make('[permissions]\nask = ["Bash(echo:*)"]\n');
  const answering = (behavior: 'allow' | 'deny') => {
    const seen: string[] = [];
    const onEvent = (e: SessionEvent) => {
      seen.push(e.type);
      if (e.type === 'permission_request') queueMicrotask(() => c.session.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior } }));
    };
    return { seen, onEvent };
  };
  const yes = answering('allow');
  expect((await expandSkill(c, 'echo', '', new AbortController().signal, yes.onEvent))?.prompt).toContain('Said: from-the-line');
  expect(yes.seen).toEqual(['permission_request', 'permission_resolved']);
  const no = answering('deny');
  expect((await expandSkill(c, 'echo', '', new AbortController().signal, no.onEvent))?.prompt).toMatch(/Said: \[not run: The user denied this Bash call\.[^\]]*\]/);
  expect(no.seen).toEqual(['permission_request', 'permission_resolved', 'permission_denied']);
  // Nobody answers; the TUI's Esc aborts: the question is withdrawn and the line is not run.
  const abort = new AbortController();
  const open: string[] = [];
  const withdrawn = expandSkill(c, 'echo', '', abort.signal, (e) => {
    open.push(e.type);
    if (e.type === 'permission_request') queueMicrotask(() => abort.abort());
  });
  expect((await withdrawn)?.prompt).toMatch(/Said: \[not run: [^\]]+\]/);
  expect(open).toEqual(['permission_request', 'permission_resolved', 'permission_denied']);
});

test('skills: listed with their usage; /name args expands; a missing argument is the usage line', async () => {
  const { c } = await make();
  expect(c.queries.skills()).toEqual([{ name: 'review', description: 'review a file', args: '<file>' }, { name: 'quick', description: 'quick answer' }, { name: 'echo', description: 'echoes' }]);
  expect((await expandSkill(c, 'review', 'src/a.ts'))?.prompt).toContain('Review src/a.ts for bugs.');
  expect(await expandSkill(c, 'nope', '')).toBeUndefined();
  await expect(expandSkill(c, 'review', '')).rejects.toThrow('/review needs <file>');
});

test('model and mode go to the open session (status and next request) and to later sessions', async () => {
  const { c } = await make();
  c.session.submit({ type: 'set_model', model: 'claude-opus-4-5' });
  c.session.submit({ type: 'set_permission_mode', mode: 'acceptEdits' });
  expect(c.queries.info()).toMatchObject({ model: 'claude-opus-4-5', permissionMode: 'acceptEdits' });
  server.script(reply().text('ok').stop('end_turn'));
  await drain(c.session.run({ text: 'hi', attachments: [], shellContext: [] }, new AbortController().signal));
  expect((server.requests[0]?.body as { model?: string } | undefined)?.model).toBe('claude-opus-4-5');
  // /clear keeps the choice.
  c.session.submit({ type: 'new_session' });
  expect(c.queries.info()).toMatchObject({ model: 'claude-opus-4-5', permissionMode: 'acceptEdits' });
});

test('/model across providers: the list and the status line come from the catalogue; a switch converts the history for the new API', async () => {
  const router = new ModelRouter({
    providers: {
      ...BUILTIN_PROVIDERS,
      anthropic: { ...BUILTIN_PROVIDERS['anthropic']!, baseUrl: server.url },
      gemini: { ...BUILTIN_PROVIDERS['gemini']!, baseUrl: server.url },
    },
    env: { ANTHROPIC_API_KEY: 'k', GEMINI_API_KEY: 'g' },
  });
  const { c } = await make(undefined, router);
  expect(c.queries.models()).toContain('claude-opus-4-5');
  expect(c.queries.models()).toContain('openai/gpt-5.1');
  expect(c.queries.models()).toContain('gemini/gemini-2.5-pro');
  expect(c.queries.models()).toContain('deepseek/deepseek-chat');
  expect(c.queries.info().contextWindow).toBe(200_000);
  expect(() => c.session.submit({ type: 'set_model', model: 'nope/model' })).toThrow(/unknown provider "nope"/);

  server.script(reply().thinking('claude thoughts', 'sig').text('first'), reply().text('second'));
  await drain(c.session.run({ text: 'hi', attachments: [], shellContext: [] }, new AbortController().signal));
  c.session.submit({ type: 'set_model', model: 'gemini/gemini-2.5-pro' });
  expect(c.queries.info()).toMatchObject({ model: 'gemini/gemini-2.5-pro', contextWindow: 1_048_576 });
  await drain(c.session.run({ text: 'again', attachments: [], shellContext: [] }, new AbortController().signal));
  expect(server.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1beta/models/gemini-2.5-pro:streamGenerateContent']);
  const second = JSON.stringify(server.requests[1]?.body);
  expect(second).toContain('first');
  expect(second).not.toContain('claude thoughts');
});

test("the router's notices (an image left out for a model) reach the transcript's listeners, not stderr", async () => {
  const router = new ModelRouter({ env: { ANTHROPIC_API_KEY: 'k' } });
  const { c } = await make(undefined, router);
  const heard: string[] = [];
  const stop = c.queries.onNotice((level, text) => heard.push(`${level}: ${text}`));
  router.onNotice('images left out for ollama/llama3: it does not accept images');
  stop();
  router.onNotice('not heard');
  expect(heard).toEqual(['warning: images left out for ollama/llama3: it does not accept images']);
});

test('/permissions remove edits the project file (comments kept) and the open session stops applying the rule', async () => {
  const { c, projectFile } = await make('# team rules\n[permissions]\nallow = [\n  "Read", # always fine\n  "Bash(npm test:*)",\n]\n');
  expect(c.queries.permissionRules().map((r) => r.rule)).toEqual(['Read', 'Bash(npm test:*)']);
  expect(removeRule(c, 'Bash(npm test:*)', 'allow')).toBe(true);
  expect(readFileSync(projectFile, 'utf8')).toBe('# team rules\n[permissions]\nallow = [\n  "Read", # always fine\n]\n');
  expect(c.queries.permissionRules().map((r) => r.rule)).toEqual(['Read']);
  expect(removeRule(c, 'Bash(npm test:*)', 'allow')).toBe(false);
  // A rule added in this session can be removed again.
  c.session.submit({ type: 'add_rule', rule: 'Bash(ls:*)', behavior: 'deny', scope: 'project' });
  expect(readFileSync(projectFile, 'utf8')).toContain('deny = ["Bash(ls:*)"]');
  expect(removeRule(c, 'Bash(ls:*)', 'deny')).toBe(true);
  expect(readFileSync(projectFile, 'utf8')).not.toContain('Bash(ls:*)');
  expect(c.queries.permissionRules().map((r) => r.rule)).toEqual(['Read']);
});

test('an "always" answer holds in the open session until /permissions remove takes it back', async () => {
  const { c, projectFile } = await make('[permissions]\n');
  server.script(
    reply().toolUse('Bash', { command: 'echo one' }).stop('tool_use'),
    reply().toolUse('Bash', { command: 'echo two' }).stop('tool_use'),
    reply().text('done'),
    reply().toolUse('Bash', { command: 'echo three' }).stop('tool_use'),
    reply().text('done again'),
  );
  const asked: string[] = [];
  const answer = async (text: string) => {
    for await (const e of c.session.run({ text, attachments: [], shellContext: [] }, new AbortController().signal)) {
      if (e.type !== 'permission_request') continue;
      asked.push(e.intent.subject ?? '');
      c.session.submit({ type: 'permission_answer', requestId: e.requestId, decision: asked.length === 1 ? { behavior: 'allow', remember: 'project' } : { behavior: 'deny' } });
    }
  };
  await answer('echo twice');
  expect(asked).toEqual(['echo one']);
  expect(readFileSync(projectFile, 'utf8')).toContain('Bash(echo:*)');
  expect(removeRule(c, 'Bash(echo:*)', 'allow')).toBe(true);
  await answer('echo again');
  expect(asked).toEqual(['echo one', 'echo three']);
});

test('sub-agents: the task tool runs one, its status reaches the UI between runs, and shutdown stops background ones', async () => {
  const { c } = await make(undefined);
  writeFileSync(join(root, 'notes.txt'), 'the answer is 42\n');
  expect(c.queries.agentDefinitions().map((d) => d.name)).toContain('explore');
  const updates: SubagentUpdate[] = [];
  c.queries.onSubagentUpdate((u) => updates.push(u));
  server.route('MAIN', reply().toolUse('Task', { description: 'Read notes', prompt: 'CHILD: read notes.txt', tools: ['read'], isolation: 'none' }), reply().text('It says 42.'));
  server.route('CHILD', reply().toolUse('Read', { file_path: join(root, 'notes.txt') }), reply().text('The notes say 42.'));
  const events = await drain(c.session.run({ text: 'MAIN', attachments: [], shellContext: [] }, new AbortController().signal));
  expect(events.filter((e) => e.type.startsWith('subagent_') && e.type !== 'subagent_event').map((e) => e.type)).toEqual(['subagent_started', 'subagent_finished']);
  // Queued, running, …, and once it ended the outcome with its answer.
  expect(updates[0]?.info.status).toBe('queued');
  expect(updates.some((u) => u.info.status === 'running' && /^Read /.test(u.info.lastActivity))).toBe(true);
  expect(updates.some((u) => (u.info.tokens ?? 0) > 0)).toBe(true);
  await Bun.sleep(0);
  const last = updates.at(-1);
  expect(last?.outcome).toMatchObject({ status: 'done', result: 'The notes say 42.', turns: 2 });
  expect(c.queries.subagents().map((a) => [a.description, a.status])).toEqual([['Read notes', 'done']]);
  // Not a git repository: no worktrees to list, and nothing to stop.
  expect(await c.queries.listWorktrees()).toEqual([]);
  expect(() => c.session.submit({ type: 'stop_subagent', agentId: last?.info.agentId ?? '' })).toThrow('no queued or running sub-agent');

  // A background agent still working when moat exits is stopped before shutdown returns (then the store closes).
  server.route('BG-MAIN', reply().toolUse('Task', { description: 'Slow job', prompt: 'BG-CHILD', tools: ['read'], isolation: 'none', run_in_background: true }), reply().text('started'));
  server.route('BG-CHILD', reply().wait(20_000).text('never'));
  // A fresh conversation, so the fake server routes it by its own first message.
  c.session.submit({ type: 'new_session' });
  await drain(c.session.run({ text: 'BG-MAIN', attachments: [], shellContext: [] }, new AbortController().signal));
  const bg = c.queries.subagents().find((a) => a.description === 'Slow job');
  expect(bg?.status).toBe('running');
  const t0 = performance.now();
  await c.lifecycle.shutdown();
  controller = undefined;
  expect(performance.now() - t0).toBeLessThan(5000);
  expect(c.queries.subagents().find((a) => a.agentId === bg?.agentId)?.status).toBe('stopped');
  // The unanswered reply stays in the fake server's queue: drop it for the next test.
  server.requests.length = 0;
}, 20_000);

test('@path completion outside git: every nested .gitignore hides its own files; node_modules is never listed', async () => {
  const { c } = await make();
  for (const [file, text] of [
    ['.gitignore', '*.log\n'],
    ['a.ts', ''],
    ['debug.log', ''],
    ['sub/.gitignore', 'secret.txt\nbuild/\n'],
    ['sub/keep.ts', ''],
    ['sub/secret.txt', ''],
    ['sub/build/out.js', ''],
    ['sub/deeper/.gitignore', '!keep.log\n'],
    ['sub/deeper/keep.log', ''],
    ['sub/deeper/secret.txt', ''],
    ['other/secret.txt', ''],
    ['node_modules/pkg/index.js', ''],
  ] as const) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  expect((await c.queries.listFiles()).filter((f) => !f.startsWith('.db/') && !f.startsWith('home/')).sort()).toEqual([
    '.gitignore',
    'a.ts',
    'other/secret.txt',
    'sub/.gitignore',
    'sub/deeper/.gitignore',
    'sub/deeper/keep.log',
    'sub/keep.ts',
  ]);
});

test('!cmd &: the prompt comes back when the shell ends, and its background child is ended with it', async () => {
  const { c } = await make();
  const pidFile = join(root, 'bg.pid');
  const t0 = performance.now();
  const r = await runShell(c, `echo started; sleep 30 & echo $! > ${pidFile}`, new AbortController().signal, (e) => {
    // Answered once the question is open (the event comes just before it is), as a person would.
        if (e.type === 'permission_request') setTimeout(() => c.session.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior: 'allow' } }), 0);
  });
  // Well before the 10 s shell timeout of the test settings, which would otherwise end it.
  expect(performance.now() - t0).toBeLessThan(5000);
  expect(r).toMatchObject({ command: `echo started; sleep 30 & echo $! > ${pidFile}`, output: 'started\n', exitCode: 0 });
  expect(await waitGone(Number(readFileSync(pidFile, 'utf8')), 1000)).toBe(true);
});

test("trusting the folder applies its settings at once: allow rules, hooks and /hooks, without a restart", async () => {
  mkdirSync(join(root, '.claude'), { recursive: true });
  writeFileSync(
    join(root, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Write'] }, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo TRUSTED-HOOK-CONTEXT' }] }] } }),
  );
  // Untrusted at start: the project's allow rule and hook are held back.
  const { c, loaded } = await plainController();
  expect(loaded.untrusted).toEqual(['.claude/settings.json: 1 allow rule, hooks']);
  const write = () => reply().toolUse('Write', { file_path: 'a.txt', content: 'x' }).stop('tool_use');
  server.script(write(), reply().text('one'), write(), reply().text('two'));
  const asked = async (text: string) => {
    let questions = 0;
    for await (const e of c.session.run({ text, attachments: [], shellContext: [] }, new AbortController().signal)) {
      if (e.type !== 'permission_request') continue;
      questions++;
      c.session.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior: 'deny' } });
    }
    return questions;
  };
  expect(await asked('first')).toBe(1);
  expect(c.queries.hooks()).toEqual([]);
  c.session.submit({ type: 'trust_project' });
  expect(c.queries.untrustedGrants()).toEqual([]);
  expect(c.queries.hooks().map((h) => h.command)).toEqual(['echo TRUSTED-HOOK-CONTEXT']);
  // The open session, not only the next start: the rule allows the call and the hook adds its context.
  expect(await asked('second')).toBe(0);
  expect(JSON.stringify((server.requests[2]!.body as { messages: unknown[] }).messages.at(-1))).toContain('TRUSTED-HOOK-CONTEXT');
  expect(c.queries.permissionRules().map((r) => r.rule)).toContain('Write');
});

test('trusting the folder gives MCP servers the folders its settings add (setRoots)', async () => {
  const extra = tempDir('moat-tui-ctl-extra-');
  mkdirSync(join(root, '.claude'), { recursive: true });
  writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify({ permissions: { additionalDirectories: [extra] } }));
  const told: string[][] = [];
  const { c, assembly } = await plainController();
  assembly.mcp.setRoots = (paths) => {
    told.push([...paths]);
    return Promise.resolve();
  };
  c.session.submit({ type: 'trust_project' });
  expect(told).toEqual([[root, extra]]);
});

test('the session opens on first use, not for the first frame; a run waits for tools still attaching', async () => {
  const { promise: toolsReady, resolve: attached } = Promise.withResolvers<void>();
  const { c, assembly } = await plainController({ toolsReady });
  const { store } = assembly;
  // What the first frame reads: no session row yet.
  expect(c.queries.info().model).toBe('claude-sonnet-4-5');
  expect(c.queries.initialMessages()).toEqual([]);
  expect(store.sessions.list({ cwd: root })).toHaveLength(0);
  c.openSession();
  // Opening the session writes its row.
  expect(store.sessions.list({ cwd: root })).toHaveLength(1);
  server.script(reply().text('ok'), reply().text('ok'));
  const run = drain(c.session.run({ text: 'hi', attachments: [], shellContext: [] }, new AbortController().signal));
  // A client with no tools attaching, started after it: once its request is in, the first one's would be too had it not waited.
  // Its sessions go to a database of their own (in memory), not the one the first client's rows are counted in.
  const { c: control } = await plainController({}, false);
  controller = c;
  control.openSession();
  await drain(control.session.run({ text: 'control', attachments: [], shellContext: [] }, new AbortController().signal));
  await control.lifecycle.shutdown();
  expect(server.requests.map((r) => JSON.stringify(r.body).includes('"hi"'))).toEqual([false]);
  attached();
  await run;
  expect(server.requests).toHaveLength(2);
  expect(store.sessions.list({ cwd: root }).map((r) => [r.id, r.title, r.status])).toEqual([[c.queries.info().sessionId, 'hi', 'completed']]);
});

test('the process operations through the real client: the prompt history, a project MCP server approved (remembered) and reconnected, worktrees refused in one line outside a repository', async () => {
  writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } }));
  const { c } = await plainController();
  c.session.submit({ type: 'add_prompt_history', text: 'first prompt' });
  c.session.submit({ type: 'add_prompt_history', text: 'second prompt' });
  expect(c.queries.promptHistory()).toEqual(['first prompt', 'second prompt']);
  expect(() => c.session.submit({ type: 'add_prompt_history', text: ' ' })).toThrow('add_prompt_history: the prompt is empty');

  const status = () => c.queries.mcpServers().find((s) => s.name === 'everything')?.status;
  expect(status()).toBe('needs-approval');
  // A name no server has approves none: nothing is remembered, nothing starts.
  expect(() => c.session.submit({ type: 'approve_mcp_servers', names: ['everything', 'ghost'] })).toThrow('No MCP server is called ghost.');
  expect(status()).toBe('needs-approval');
  const connected = new Promise<void>((resolve) => {
    const off = c.queries.onMcpChange(() => {
      if (status() !== 'connected') return;
      off();
      resolve();
    });
  });
  c.session.submit({ type: 'approve_mcp_servers', names: ['everything'] });
  await connected;
  expect(projectTrust(root, join(root, 'home', '.config', 'moat')).approvedMcpServers).toEqual(['everything']);
  expect(await c.session.request({ type: 'reconnect_mcp', server: 'everything' })).toBeUndefined();
  expect(status()).toBe('connected');
  await expect(c.session.request({ type: 'reconnect_mcp', server: 'ghost' })).rejects.toThrow('No MCP server is called ghost.');

  // Worktrees are the repository's: this folder is not one (its .git is empty), and both say so in one line.
  await expect(c.session.request({ type: 'merge_worktree', id: 'nope' })).rejects.toThrow('moat worktrees needs a git repository');
  await expect(c.session.request({ type: 'remove_worktree', id: 'nope' })).rejects.toThrow('moat worktrees needs a git repository');
}, 30_000);
