/**
 * End to end: the ACP SDK's client side (`client()`, what editors build on) drives the compiled
 * `dist/moat acp` against the fake model server: a read and an answer, an edit asked about (allowed,
 * refused, allowed always), a cancel mid-stream, a saved session loaded again, an MCP server the
 * editor hands over, and reads and edits through the editor's own buffers.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox, type Sandbox } from '../support/run-moat.ts';

const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: FakeAnthropic;
let sb: Sandbox;
const running: { close(): Promise<void> }[] = [];

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

type Body = { messages: { role: string; content: { type: string; text?: string; content?: unknown }[] }[] };

interface EditorOptions {
  /** The option the editor picks for each permission question, in order ("cancelled" when none is left). */
  answers?: string[];
  /** The editor's unsaved buffers: offered through fs/* when given. */
  buffers?: Map<string, string>;
}

/** `moat acp` in the sandbox, with an ACP client that records what it is sent. */
async function startEditor(o: EditorOptions = {}) {
  const proc = Bun.spawn([MOAT_BIN, 'acp'], { cwd: sb.cwd, env: sb.env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  const stderr = new Response(proc.stderr).text();
  const input = new WritableStream<Uint8Array>({
    write: async (chunk) => {
      await proc.stdin.write(chunk);
      await proc.stdin.flush();
    },
    close: () => void proc.stdin.end(),
  });
  const updates: acp.SessionNotification[] = [];
  const questions: acp.RequestPermissionRequest[] = [];
  const writes: acp.WriteTextFileRequest[] = [];
  const listeners: (() => void)[] = [];
  const answers = [...(o.answers ?? [])];
  let app = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      for (const l of listeners.splice(0)) l();
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      questions.push(params);
      const optionId = answers.shift();
      return { outcome: optionId === undefined ? { outcome: 'cancelled' } : { outcome: 'selected', optionId } };
    });
  const buffers = o.buffers;
  if (buffers !== undefined) {
    app = app
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        const text = buffers.get(params.path) ?? (existsSync(params.path) ? readFileSync(params.path, 'utf8') : undefined);
        if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        writes.push(params);
        buffers.set(params.path, params.content);
        return {};
      });
  }
  const connection = app.connect(acp.ndJsonStream(input, proc.stdout));
  const editor = {
    agent: connection.agent,
    updates,
    questions,
    writes,
    stderr,
    /** Resolves once an update matching `test` has come. */
    until: (match: (u: acp.SessionUpdate) => boolean) =>
      new Promise<void>((done) => {
        const check = () => (updates.some((n) => match(n.update)) ? done() : listeners.push(check));
        check();
      }),
    /** The editor closes its end of stdin, as an editor does when it quits: moat's exit code. */
    hangUp: async () => {
      await proc.stdin.end();
      return proc.exited;
    },
    close: async () => {
      connection.close();
      proc.kill();
      await proc.exited;
    },
  };
  running.push(editor);
  const init = await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: buffers === undefined ? {} : { fs: { readTextFile: true, writeTextFile: true } },
  });
  return { ...editor, init };
}

const kinds = (updates: acp.SessionNotification[]) => updates.map((n) => n.update.sessionUpdate);
const text = (updates: acp.SessionNotification[], kind: 'agent_message_chunk' | 'user_message_chunk') =>
  updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === kind)
    .map((u) => ('content' in u && !Array.isArray(u.content) && u.content?.type === 'text' ? u.content.text : ''))
    .join('');
const toolResultOf = (request: number) => JSON.stringify((server.requests[request]?.body as Body).messages.at(-1)?.content.find((c) => c.type === 'tool_result'));

describe('moat acp', () => {
  test('initialize, a new session, a read and an answer: the tool call has its kind, title, location and status', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'hello from disk\n');
    server.script(reply().text('Let me read.').toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('It says hello.'));
    const editor = await startEditor();
    expect(editor.init).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true }, mcpCapabilities: { http: true } },
      authMethods: [{ id: 'api-key' }],
      agentInfo: { name: 'moat' },
    });
    const session = await editor.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
    expect(session.modes?.currentModeId).toBe('default');
    expect(session.modes?.availableModes.map((m) => m.id)).toEqual(['default', 'acceptEdits', 'plan', 'bypassPermissions']);
    expect(session.configOptions?.[0]).toMatchObject({ id: 'model', category: 'model', currentValue: expect.any(String) });
    const answer = await editor.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'What does a.txt say?' }] });
    expect(answer.stopReason).toBe('end_turn');
    const call = editor.updates.find((n) => n.update.sessionUpdate === 'tool_call')?.update;
    expect(call).toMatchObject({ toolCallId: expect.any(String), title: 'Read a.txt', kind: 'read', status: 'pending', locations: [{ path: join(sb.cwd, 'a.txt') }] });
    const done = editor.updates.filter((n) => n.update.sessionUpdate === 'tool_call_update').at(-1)?.update;
    expect(done).toMatchObject({ status: 'completed', rawOutput: expect.stringContaining('hello from disk') });
    expect(text(editor.updates, 'agent_message_chunk')).toBe('Let me read.It says hello.');
    expect(editor.updates.every((n) => n.sessionId === session.sessionId)).toBe(true);
    expect(kinds(editor.updates)).toContain('available_commands_update');
  }, 30_000);

  test('an edit asks the editor: allowed once it is made (with its diff), refused it is not, allowed always it is kept in .moat/config.toml', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'one\n');
    const read = reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use');
    const edit = (from: string, to: string) => reply().toolUse('Edit', { file_path: 'a.txt', old_string: from, new_string: to }).stop('tool_use');
    server.script(read, edit('one', 'two'), reply().text('edited'), edit('two', 'three'), reply().text('refused'), edit('two', 'four'), reply().text('kept'));
    const editor = await startEditor({ answers: ['allow_once', 'reject_once', 'allow_always'] });
    const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
    const prompt = (t: string) => editor.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: t }] });

    expect((await prompt('change one to two')).stopReason).toBe('end_turn');
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('two\n');
    expect(editor.questions).toHaveLength(1);
    expect(editor.questions[0]?.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    expect(editor.questions[0]?.toolCall).toMatchObject({ title: 'Edit a.txt' });
    const editCall = editor.updates.find((n) => n.update.sessionUpdate === 'tool_call' && n.update.kind === 'edit')?.update;
    expect(editCall).toMatchObject({ content: [{ type: 'diff', path: join(sb.cwd, 'a.txt'), oldText: 'one', newText: 'two' }] });

    expect((await prompt('now three')).stopReason).toBe('end_turn');
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('two\n');
    expect(toolResultOf(4)).toContain('denied');
    const failed = editor.updates.filter((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.status === 'failed');
    expect(failed).toHaveLength(1);

    expect((await prompt('now four')).stopReason).toBe('end_turn');
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('four\n');
    expect(readFileSync(join(sb.cwd, '.moat', 'config.toml'), 'utf8')).toContain('Edit(');
    expect(editor.questions).toHaveLength(3);
  }, 30_000);

  test('session/cancel mid-stream ends the prompt as cancelled; the session answers the next one', async () => {
    server.script(reply().text('slow '.repeat(200), { chunkSize: 5, delayMs: 20 }), reply().text('second answer'));
    const editor = await startEditor();
    const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
    const first = editor.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'talk slowly' }] });
    await editor.until((u) => u.sessionUpdate === 'agent_message_chunk');
    await editor.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await first).stopReason).toBe('cancelled');
    expect(text(editor.updates, 'agent_message_chunk').length).toBeLessThan('slow '.repeat(200).length);
    editor.updates.length = 0;
    const second = await editor.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'and now?' }] });
    expect(second.stopReason).toBe('end_turn');
    expect(text(editor.updates, 'agent_message_chunk')).toBe('second answer');
  }, 30_000);

  test('session/load replays a saved session as updates and goes on with its history', async () => {
    server.script(reply().text('Hello there.'), reply().text('Still here.'));
    const first = await startEditor();
    const { sessionId } = await first.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
    await first.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    await first.close();

    const second = await startEditor();
    const loaded = await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: sb.cwd, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe('default');
    expect(text(second.updates, 'user_message_chunk')).toBe('hi');
    expect(text(second.updates, 'agent_message_chunk')).toBe('Hello there.');
    await second.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'still there?' }] });
    const sent = (server.requests[1]?.body as Body).messages.map((m) => m.content.map((c) => c.text ?? '').join(''));
    expect(sent).toEqual(['hi', 'Hello there.', 'still there?']);
    await expect(second.agent.request(acp.methods.agent.session.load, { sessionId: 'no-such-session', cwd: sb.cwd, mcpServers: [] })).rejects.toThrow(/no-such-session/);
  }, 30_000);

  test("an MCP server the editor hands over starts, and the model calls its tool (under the editor's answer)", async () => {
    server.script(
      // The first prompt waits for the editor's servers: no wait needed here.
      reply().toolUse('ToolSearch', { query: 'select:mcp__everything__echo' }).stop('tool_use'),
      reply().toolUse('mcp__everything__echo', { message: 'from the editor' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const editor = await startEditor({ answers: ['allow_once'] });
    const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, {
      cwd: sb.cwd,
      mcpServers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING_JS, 'stdio'], env: [] }],
    });
    const answer = await editor.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'echo something' }] });
    expect(answer.stopReason).toBe('end_turn');
    expect(toolResultOf(2)).toContain('Echo: from the editor');
    expect(editor.questions.map((q) => q.toolCall.title)).toEqual(['mcp__everything__echo']);
  }, 30_000);

  test("with the editor's file access: Read sees the unsaved buffer, Edit lands in the editor and not on disk", async () => {
    const file = join(sb.cwd, 'a.txt');
    writeFileSync(file, 'saved text\n');
    const buffers = new Map([[file, 'unsaved text\n']]);
    server.script(
      reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'),
      reply().toolUse('Edit', { file_path: 'a.txt', old_string: 'unsaved', new_string: 'edited' }).stop('tool_use'),
      reply().text('done'),
    );
    const editor = await startEditor({ buffers, answers: ['allow_once'] });
    const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
    await editor.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'edit it' }] });
    expect(toolResultOf(1)).toContain('unsaved text');
    expect(editor.writes).toEqual([{ sessionId, path: file, content: 'edited text\n' }]);
    expect(readFileSync(file, 'utf8')).toBe('saved text\n');
  }, 30_000);

  test('when the editor hangs up, moat ends its sessions (SessionEnd hooks run) and exits 0', async () => {
    const ended = join(sb.cwd, 'ended.json');
    mkdirSync(join(sb.home, '.claude'), { recursive: true });
    writeFileSync(join(sb.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `cat > ${JSON.stringify(ended)}` }] }] } }));
    server.script(reply().text('hi'));
    const editor = await startEditor();
    const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
    await editor.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    expect(await editor.hangUp()).toBe(0);
    expect(JSON.parse(readFileSync(ended, 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', session_id: sessionId });
  }, 30_000);

  test('session/set_mode and the model option change the session; a prompt with a file attached carries its text', async () => {
    server.script(reply().text('ok'));
    const editor = await startEditor();
    const { sessionId } = await editor.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
    await editor.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'plan' });
    await editor.until((u) => u.sessionUpdate === 'current_mode_update' && u.currentModeId === 'plan');
    await expect(editor.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'yolo' })).rejects.toThrow(/unknown mode yolo/);
    await expect(editor.agent.request(acp.methods.agent.session.prompt, { sessionId: 'nope', prompt: [{ type: 'text', text: 'x' }] })).rejects.toMatchObject({ code: -32002, data: { sessionId: 'nope' } });
    await expect(editor.agent.request(acp.methods.agent.session.new, { cwd: join(sb.cwd, 'missing'), mcpServers: [] })).rejects.toThrow(/missing: not a folder/);
    await expect(editor.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'image', mimeType: 'image/tiff', data: 'AA' }] })).rejects.toThrow(/image\/tiff/);
    const options = await editor.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'claude-haiku-4-5' });
    expect(options.configOptions[0]).toMatchObject({ currentValue: 'claude-haiku-4-5' });
    await editor.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'look at this' },
        { type: 'resource', resource: { uri: `file://${sb.cwd}/notes.md`, text: 'attached words' } },
        { type: 'resource_link', uri: `file://${sb.cwd}/b.txt`, name: 'b.txt' },
      ],
    });
    const body = server.requests[0]?.body as Body & { model: string };
    expect(body.model).toContain('haiku');
    const sent = JSON.stringify(body.messages.at(-1));
    expect(sent).toContain('attached words');
    expect(sent).toContain(`${sb.cwd}/b.txt`);
  }, 30_000);
});
