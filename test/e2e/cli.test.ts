/**
 * End to end: the compiled binary's subcommands and folder flags.
 */
import { beforeEach, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let sb: Sandbox;
serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
});
const moat = (args: string[], cwd = sb.cwd) => runMoat(args, { cwd, env: sb.env });
const lastToolResult = (i: number) => {
  const body = server.requests[i]!.body as { messages: { content: { type: string; content?: unknown; is_error?: boolean }[] }[] };
  return body.messages.at(-1)!.content.find((c) => c.type === 'tool_result')!;
};

describe('the binary', () => {
  test('runs from any folder with nothing else on disk', async () => {
    const lonely = tempDir('moat-lonely-');
    copyFileSync(MOAT_BIN, join(lonely, 'moat'));
    Bun.spawnSync(['chmod', '+x', join(lonely, 'moat')]);
    const v = Bun.spawnSync([join(lonely, 'moat'), '--version'], { cwd: '/', env: sb.env });
    expect(v.stdout.toString()).toMatch(/^\d+\.\d+\.\d+ \(moat\)\n$/);
    server.script(reply().text('from afar'));
    const proc = Bun.spawn([join(lonely, 'moat'), '-p', 'hi'], { cwd: sb.cwd, env: sb.env, stdin: 'ignore', stdout: 'pipe' });
    expect(await new Response(proc.stdout).text()).toBe('from afar\n');
  });

  test('--help lists every flag and subcommand, one line each', async () => {
    const r = await moat(['--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--print', '--output-format', '--model', '--max-turns', '--max-budget-usd', '--permission-mode', '--allowedTools', '--disallowedTools', '--add-dir', '--cwd', '--system-prompt', '--append-system-prompt', '--continue', '--resume', '--verbose', '--no-color', '--version']) {
      const lines = r.stdout.split('\n').filter((l) => l.includes(`${flag} `) || l.includes(`${flag},`) || l.endsWith(flag));
      expect(lines.length).toBeGreaterThanOrEqual(1);
    }
    expect(r.stdout).toContain('moat sessions list');
    expect(r.stdout).toContain('moat sessions export');
  });
});

describe('folders', () => {
  test('--cwd sets the working folder; --add-dir grants another', async () => {
    const other = join(sb.cwd, '..', 'other');
    const extra = join(sb.cwd, '..', 'extra');
    mkdirSync(other);
    mkdirSync(extra);
    writeFileSync(join(other, 'here.txt'), 'in other\n');
    writeFileSync(join(extra, 'x.txt'), 'in extra\n');
    server.script(
      reply().toolUse('Read', { file_path: 'here.txt' }).stop('tool_use'),
      reply().toolUse('Read', { file_path: join(extra, 'x.txt') }).stop('tool_use'),
      reply().text('done'),
    );
    const r = await moat(['-p', 'read', '--cwd', other, '--add-dir', extra]);
    expect(r.code).toBe(0);
    expect(JSON.stringify(lastToolResult(1).content)).toContain('in other');
    expect(JSON.stringify(lastToolResult(2).content)).toContain('in extra');
    expect(lastToolResult(2).is_error).toBeUndefined();
  });

  test('a read outside the roots is refused; a symlink escape too', async () => {
    const outside = join(sb.cwd, '..', 'secret.txt');
    writeFileSync(outside, 'TOP SECRET\n');
    Bun.spawnSync(['ln', '-s', outside, join(sb.cwd, 'link.txt')]);
    server.script(
      reply().toolUse('Read', { file_path: '../secret.txt' }).stop('tool_use'),
      reply().toolUse('Read', { file_path: 'link.txt' }).stop('tool_use'),
      reply().text('refused'),
    );
    await moat(['-p', 'steal']);
    for (const i of [1, 2]) {
      const r = lastToolResult(i);
      expect(r.is_error).toBe(true);
      expect(JSON.stringify(r.content)).not.toContain('TOP SECRET');
    }
  });

  test('--cwd that is not a folder is a usage error', async () => {
    const r = await moat(['-p', 'x', '--cwd', join(sb.cwd, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').length).toBe(1);
  });
});

describe('sessions', () => {
  test('list, show, export json and markdown, rm', async () => {
    server.script(reply().text('the answer'));
    const first = JSON.parse((await moat(['-p', 'the question', '--output-format', 'json'])).stdout);
    const id: string = first.session_id;

    const list = await moat(['sessions', 'list']);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('the question');
    const elsewhere = await moat(['sessions', 'list'], join(sb.cwd, '..'));
    expect(elsewhere.stdout).not.toContain(id);
    expect((await moat(['sessions', 'list', '--all'], join(sb.cwd, '..'))).stdout).toContain(id);

    const shown = await moat(['sessions', 'show', id.slice(0, 8)]);
    expect(shown.stdout).toContain('the question');
    expect(shown.stdout).toContain('the answer');

    const json = JSON.parse((await moat(['sessions', 'export', id, '--format', 'json'])).stdout);
    expect(json.session.id).toBe(id);
    expect(json.messages.length).toBe(2);
    const md = await moat(['sessions', 'export', id, '--format', 'markdown']);
    expect(md.stdout).toContain('the answer');

    // Tool output saved for the session (results too big for the model) goes with it; another session's stays.
    const results = join(sb.env.XDG_DATA_HOME!, 'moat', 'tool-results');
    for (const s of [id, 'other-session']) {
      mkdirSync(join(results, s), { recursive: true });
      writeFileSync(join(results, s, 'call-1-result.txt'), 'saved');
    }
    expect((await moat(['sessions', 'rm', id])).code).toBe(0);
    expect(existsSync(join(results, id))).toBe(false);
    expect(existsSync(join(results, 'other-session', 'call-1-result.txt'))).toBe(true);
    const gone = await moat(['sessions', 'show', id]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(id.slice(0, 8));
  });
});

describe('output details', () => {
  test('--verbose shows tool activity on stderr, never on stdout; NO_COLOR means no escapes', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'A\n');
    server.script(reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('ok'));
    const r = await moat(['-p', 'read a', '--verbose']);
    expect(r.stdout).toBe('ok\n');
    expect(r.stderr).toContain('Read');
    expect(r.stderr).toContain('a.txt');
    expect(r.stderr).not.toContain('\x1b[');
  });

  test('thinking blocks are sent back with their signature', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'A\n');
    server.script(reply().thinking('let me think', 'sig-123').toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('ok'));
    await moat(['-p', 'think']);
    const body = server.requests[1]!.body as { messages: { role: string; content: { type: string; signature?: string; thinking?: string }[] }[] };
    expect(body.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'let me think', signature: 'sig-123' });
  });

  test('AGENTS.md reaches the system prompt', async () => {
    writeFileSync(join(sb.cwd, 'AGENTS.md'), 'Always answer in French.');
    server.script(reply().text('oui'));
    await moat(['-p', 'hi']);
    expect(JSON.stringify(server.requests[0]!.body)).toContain('Always answer in French.');
    expect(readFileSync(join(sb.cwd, 'AGENTS.md'), 'utf8')).toBe('Always answer in French.');
  });
});
