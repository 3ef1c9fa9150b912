/**
 * End to end: an ACP client that offers `terminal/*` (and really spawns what it is asked to, in its
 * own environment plus the one given, as an editor does) drives `dist/moat acp`. The Bash tool runs
 * in the editor's terminal, but what the editor starts is moat's sandbox launcher: writes outside
 * the grant and network connections are refused, the API key the editor holds is not seen, and the
 * output reaches the model. A timeout kills the terminal.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;
const running: { close(): Promise<void> }[] = [];
const probes: string[] = [];

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const p of probes.splice(0)) rmSync(p, { force: true });
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

type Body = { messages: { role: string; content: { type: string; text?: string; content?: unknown }[] }[] };
const toolResultOf = (request: number) => JSON.stringify((server.requests[request]?.body as Body).messages.at(-1)?.content.find((c) => c.type === 'tool_result'));

interface Terminal {
  proc: ReturnType<typeof Bun.spawn>;
  output: string;
  done: Promise<void>;
}

const signalOf = (t: Terminal): string | null => (t.proc.signalCode === null ? null : String(t.proc.signalCode));

/** `moat acp` with a client that offers terminals and runs them for real. */
async function startEditor(answers: string[] = []) {
  const proc = Bun.spawn([MOAT_BIN, 'acp'], { cwd: sb.cwd, env: sb.env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  const input = new WritableStream<Uint8Array>({
    write: async (chunk) => {
      await proc.stdin.write(chunk);
      await proc.stdin.flush();
    },
    close: () => void proc.stdin.end(),
  });
  const updates: acp.SessionNotification[] = [];
  const created: acp.CreateTerminalRequest[] = [];
  const calls: string[] = [];
  const terminals = new Map<string, Terminal>();
  const pending = [...answers];
  const terminal = (id: string): Terminal => {
    const t = terminals.get(id);
    if (t === undefined) throw acp.RequestError.invalidParams(undefined, `no terminal ${id}`);
    return t;
  };
  const app = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, () => {
      const optionId = pending.shift();
      return { outcome: optionId === undefined ? { outcome: 'cancelled' } : { outcome: 'selected', optionId } };
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      created.push(params);
      calls.push('create');
      // As an editor does: its own environment (which holds an API key here), plus what it is given.
      const env = { ...sb.env, ANTHROPIC_API_KEY: 'editor-held-key', ...Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value])) };
      const child = Bun.spawn([params.command, ...(params.args ?? [])], { cwd: params.cwd ?? sb.cwd, env, stdout: 'pipe', stderr: 'pipe' });
      const t: Terminal = { proc: child, output: '', done: Promise.resolve() };
      const pipe = async (stream: ReadableStream<Uint8Array>) => {
        const decoder = new TextDecoder();
        for await (const chunk of stream) t.output += decoder.decode(chunk, { stream: true });
      };
      t.done = Promise.all([pipe(child.stdout), pipe(child.stderr), child.exited]).then(() => undefined);
      const terminalId = `term-${terminals.size + 1}`;
      terminals.set(terminalId, t);
      return { terminalId };
    })
    .onRequest(acp.methods.client.terminal.output, async ({ params }) => {
      calls.push('output');
      const t = terminal(params.terminalId);
      return { output: t.output, truncated: false, ...(t.proc.exitCode === null && t.proc.signalCode === null ? {} : { exitStatus: { exitCode: t.proc.exitCode, signal: signalOf(t) } }) };
    })
    .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => {
      calls.push('wait_for_exit');
      const t = terminal(params.terminalId);
      await t.done;
      return { exitCode: t.proc.exitCode, signal: signalOf(t) };
    })
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      calls.push('kill');
      terminal(params.terminalId).proc.kill();
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      calls.push('release');
      terminal(params.terminalId).proc.kill();
      terminals.delete(params.terminalId);
      return {};
    });
  const connection = app.connect(acp.ndJsonStream(input, proc.stdout));
  const editor = {
    agent: connection.agent,
    updates,
    created,
    calls,
    close: async () => {
      connection.close();
      proc.kill();
      await proc.exited;
    },
  };
  running.push(editor);
  await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { terminal: true } });
  const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: sb.cwd, mcpServers: [] });
  const prompt = (text: string) => connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
  return { ...editor, prompt };
}

describe('moat acp with the editor’s terminals', () => {
  test('Bash runs in the editor’s terminal through moat’s sandbox launcher: the grant holds, the key is gone, the output reaches the model', async () => {
    const outside = join('/var/tmp', `moat-acp-probe-${randomBytes(6).toString('hex')}`);
    probes.push(outside);
    const command = [
      'echo start',
      'echo key=${ANTHROPIC_API_KEY:-none}',
      'touch inside.txt && echo wrote-inside',
      `touch ${outside} && echo wrote-outside || echo outside-refused`,
      `(exec 3<>/dev/tcp/127.0.0.1/${new URL(server.url).port}) 2>/dev/null && echo net-open || echo net-refused`,
      'echo done',
    ].join('\n');
    server.script(reply().toolUse('Bash', { command, sandbox: 'workspace-write', description: 'probe the sandbox' }).stop('tool_use'), reply().text('checked'));
    const editor = await startEditor(['allow_once']);
    expect((await editor.prompt('probe')).stopReason).toBe('end_turn');

    // The editor was asked to start moat's launcher with a spec file, not bash with the command.
    expect(editor.created).toHaveLength(1);
    const [create] = editor.created;
    expect(create?.command).toBe(MOAT_BIN);
    expect(create?.args?.[0]).toBe('__acp-terminal');
    expect(create?.args).toHaveLength(2);
    expect(JSON.stringify(create)).not.toContain('touch');
    expect(existsSync(create?.args?.[1] ?? '')).toBe(false);
    expect(editor.calls).toEqual(['create', 'wait_for_exit', 'output', 'release']);

    // Inside the sandbox: the working folder is writable at workspace-write, nothing else is, and there is no network.
    expect(existsSync(join(sb.cwd, 'inside.txt'))).toBe(true);
    expect(existsSync(outside)).toBe(false);
    const result = toolResultOf(1);
    for (const line of ['start', 'key=none', 'wrote-inside', 'outside-refused', 'net-refused', 'done']) expect(result).toContain(line);
    expect(result).not.toContain('wrote-outside');
    expect(result).not.toContain('net-open');
    expect(result).not.toContain('editor-held-key');

    // The card shows the editor's terminal, while it runs and once done.
    const withTerminal = editor.updates.filter((n) => n.update.sessionUpdate === 'tool_call_update' && n.update.content?.some((c) => c.type === 'terminal' && c.terminalId === 'term-1'));
    expect(withTerminal.length).toBeGreaterThanOrEqual(2);
    expect(withTerminal.at(-1)?.update).toMatchObject({ status: 'completed', content: [{ type: 'terminal', terminalId: 'term-1' }] });
  }, 30_000);

  test('a command past its timeout is killed through terminal/kill and the model is told', async () => {
    // 4 s: long enough for the sandbox to start and print on a loaded machine (it takes ~0.3 s idle), short of the sleep.
    server.script(reply().toolUse('Bash', { command: 'echo begun; sleep 30; echo never', timeout: 4000 }).stop('tool_use'), reply().text('too slow'));
    const editor = await startEditor();
    const started = Date.now();
    expect((await editor.prompt('wait')).stopReason).toBe('end_turn');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(editor.calls).toEqual(['create', 'wait_for_exit', 'kill', 'output', 'release']);
    const result = toolResultOf(1);
    expect(result).toContain('begun');
    expect(result).toContain('timed out after 4s');
    expect(result).not.toContain('never');
  }, 30_000);

  test('the launcher refuses a missing or foreign spec in one line, and deletes only its own spec files', async () => {
    const missing = await runMoat(['__acp-terminal', join(sb.cwd, 'moat-terminal-00.json')], { cwd: sb.cwd, env: sb.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('cannot read the terminal spec');

    const foreign = join(sb.cwd, 'notes.json');
    writeFileSync(foreign, JSON.stringify({ argv: ['sh', '-c', 'echo ran'], env: {}, extra: true }));
    const refused = await runMoat(['__acp-terminal', foreign], { cwd: sb.cwd, env: sb.env });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('not a spec moat wrote');
    expect(existsSync(foreign)).toBe(true);

    const none = await runMoat(['__acp-terminal'], { cwd: sb.cwd, env: sb.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('takes one spec file');
  }, 30_000);
});
