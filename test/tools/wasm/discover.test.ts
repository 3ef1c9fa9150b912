import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverTool, mapOutput, toArgs, type HelpRunner, type ToolSpecFromHelp } from '../../../src/tools/wasm/index.ts';
import { removeDir, tempDir } from '../tool-context.ts';
import { buildNative, runNative } from './native.ts';

let dir = '';
beforeAll(async () => {
  await buildNative();
  dir = tempDir();
  writeFileSync(join(dir, 'data.json'), '{"items": [{"n": 1}, {"n": 5}, {"n": 9}]}');
}, 120_000);
afterAll(() => removeDir(dir));

const runner = (tool: string): HelpRunner => async (args) => {
  const r = await runNative(tool, args, { cwd: dir, env: { TZDIR: '/usr/share/zoneinfo' } });
  return { exitCode: r.exitCode, stdout: r.stdoutBytes, stderr: r.stderrBytes };
};

async function discover(tool: string): Promise<ToolSpecFromHelp[]> {
  const specs = await discoverTool(runner(tool));
  if (!Array.isArray(specs)) throw new Error(specs.message);
  return specs;
}

/** The whole path a model call takes: JSON input → argv → run → tool result. */
async function call(spec: ToolSpecFromHelp, tool: string, input: Record<string, unknown>): Promise<ReturnType<typeof mapOutput>> {
  const r = await runner(tool)(toArgs(spec, input));
  return mapOutput(r.exitCode, r.stdout, r.stderr);
}

describe('discoverTool', () => {
  test('a tool without subcommands is one tool', async () => {
    const specs = await discover('calculate');
    expect(specs.map((s) => [s.name, s.argvPrefix])).toEqual([['calculate', []]]);
  });

  test('subcommands become name_subcommand tools with their own schemas and permissions', async () => {
    const b64 = await discover('base64');
    expect(b64.map((s) => [s.name, s.argvPrefix, s.permissionLevel, s.version])).toEqual([
      ['base64_encode', ['encode'], 'read', '0.1.0'],
      ['base64_decode', ['decode'], 'write', '0.1.0'],
    ]);
    expect(Object.keys(b64[1]?.inputSchema.properties ?? {})).toEqual(['text', 'file', 'output', 'url_safe']);
    const hash = await discover('hash');
    expect(hash.map((s) => s.name)).toEqual(['hash_sha256', 'hash_sha1', 'hash_md5']);
    expect(hash[0]?.description).toStartWith('SHA-256 digest of text or a file\n\nHashes the TEXT argument');
  });

  test('help that cannot be parsed is reported', async () => {
    const bad: HelpRunner = async () => ({ exitCode: 0, stdout: new TextEncoder().encode('hello\n'), stderr: new Uint8Array() });
    expect(await discoverTool(bad)).toEqual({
      type: 'parse_error',
      message: 'this does not look like --help output: it has no "Usage:", "Options:", "Arguments:" or "Commands:" section',
    });
  });
});

describe('model input → argv → native tool → result', () => {
  test('calculate with a negative expression and options', async () => {
    const [spec] = await discover('calculate');
    if (!spec) throw new Error('no spec');
    expect(await call(spec, 'calculate', { expression: '-2^2 + sin(90)', mode: 'degrees', precision: 2 })).toEqual({
      content: '-3',
      display: { type: 'text', text: 'expression: -2^2 + sin(90) · value: -3 · mode: degrees' },
    });
    expect(await call(spec, 'calculate', { expression: '1/0' })).toEqual({ content: 'error: division by zero', isError: true });
  });

  test('json_query reads a file in the working folder', async () => {
    const [spec] = await discover('json_query');
    if (!spec) throw new Error('no spec');
    const r = await call(spec, 'json_query', { query: '$.items[?(@.n > 2)].n', file: 'data.json' });
    expect(r.content).toBe('[5,9]');
  });

  test('base64 and hash subcommands', async () => {
    const [encode, decode] = await discover('base64');
    if (!encode || !decode) throw new Error('no spec');
    expect((await call(encode, 'base64', { text: '-> ok', url_safe: true })).content).toBe('LT4gb2s=');
    expect((await call(decode, 'base64', { text: 'LT4gb2s=' })).content).toBe('-> ok');
    const [sha256] = await discover('hash');
    if (!sha256) throw new Error('no spec');
    expect((await call(sha256, 'hash', { text: 'abc' })).content).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('string_transform and current_time', async () => {
    const [st] = await discover('string_transform');
    const [ct] = await discover('current_time');
    if (!st || !ct) throw new Error('no spec');
    expect((await call(st, 'string_transform', { operation: 'reverse', text: '-abc' })).content).toBe('cba-');
    expect((await call(ct, 'current_time', { timezone: 'Asia/Tokyo', at: '-86400', format: '%F %H:%M %Z' })).content).toBe('1969-12-31 09:00 JST');
  });
});
