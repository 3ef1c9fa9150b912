import { beforeAll, describe, expect, test } from 'bun:test';
import { isParseError, parseHelp, type ParseError, type ToolSpecFromHelp } from '../../../src/tools/wasm/index.ts';
import { ARGPARSE, CLAP_LONG, CLAP_SHORT, COBRA } from './help-samples.ts';
import { buildNative, runNative } from './native.ts';

function spec(x: ToolSpecFromHelp | ParseError): ToolSpecFromHelp {
  if (isParseError(x)) throw new Error(x.message);
  return x;
}

async function nativeHelp(tool: string, prefix: string[] = []): Promise<ToolSpecFromHelp> {
  const long = await runNative(tool, [...prefix, '--help']);
  const short = await runNative(tool, [...prefix, '-h']);
  expect(long.exitCode).toBe(0);
  expect(short.exitCode).toBe(0);
  return spec(parseHelp(long.stdout, short.stdout));
}

beforeAll(buildNative, 120_000);

describe('parseHelp on the bundled tools (help captured from the native builds)', () => {
  test('calculate', async () => {
    const s = await nativeHelp('calculate');
    expect(s.name).toBe('calculate');
    expect(s.version).toBe('0.1.0');
    expect(s.summary).toBe('Evaluate an arithmetic expression safely.');
    expect(s.description).toStartWith('Evaluate an arithmetic expression safely.\n\nSupports + - * / % (remainder)');
    expect(s.usage).toBe('calculate [OPTIONS] <EXPRESSION>');
    expect(s.keywords).toEqual(['math', 'arithmetic', 'calculator', 'expression']);
    expect(s.permissionLevel).toBe('none');
    expect(s.commands).toEqual([]);
    expect(s.inputSchema).toEqual({
      type: 'object',
      properties: {
        expression: { type: 'string', description: 'The expression, e.g. "2 * (3 + 4)"' },
        precision: { type: 'integer', description: 'Digits after the decimal point', default: 10 },
        mode: { type: 'string', description: 'Angle unit', enum: ['radians', 'degrees'], default: 'radians' },
      },
      required: ['expression'],
      additionalProperties: false,
    });
  });

  test('string_transform: an enum positional', async () => {
    const s = await nativeHelp('string_transform');
    expect(s.arguments.map((a) => [a.property, a.required, a.enum?.length])).toEqual([
      ['operation', true, 9],
      ['text', true, undefined],
    ]);
    expect(s.inputSchema.properties.separator).toEqual({ type: 'string', description: 'Separator between words for slugify', default: '-' });
  });

  test('json_query: flags are booleans, -h/-V are hidden', async () => {
    const s = await nativeHelp('json_query');
    expect(Object.keys(s.inputSchema.properties)).toEqual(['query', 'json', 'file', 'pretty', 'first']);
    expect(s.inputSchema.properties.pretty).toEqual({ type: 'boolean', description: 'Indent the result' });
    expect(s.options.find((o) => o.property === 'file')).toMatchObject({ long: 'file', short: 'f', valueName: 'PATH', type: 'string' });
    expect(s.permissionLevel).toBe('read');
  });

  test('current_time: options only', async () => {
    const s = await nativeHelp('current_time');
    expect(s.arguments).toEqual([]);
    expect(s.inputSchema.required).toEqual([]);
    expect(s.inputSchema.properties.timezone).toEqual({
      type: 'string',
      description: 'IANA time zone, e.g. Europe/Berlin or America/New_York',
      default: 'UTC',
    });
  });

  test('base64 and hash list their subcommands; each subcommand parses on its own', async () => {
    expect((await nativeHelp('base64')).commands).toEqual([
      { name: 'encode', description: 'Encode text or a file as base64' },
      { name: 'decode', description: 'Decode base64 to text or to a file' },
    ]);
    expect((await nativeHelp('hash')).commands.map((c) => c.name)).toEqual(['sha256', 'sha1', 'md5']);
    const decode = await nativeHelp('base64', ['decode']);
    expect(decode.program).toBe('base64-decode');
    expect(decode.permissionLevel).toBe('write');
    expect(decode.usage).toBe('base64 decode [OPTIONS] [TEXT]');
    expect(decode.inputSchema.properties.url_safe).toEqual({ type: 'boolean', description: 'Use the URL-safe alphabet (- and _ instead of + and /)' });
    expect(decode.inputSchema.required).toEqual([]);
  });
});

describe('parseHelp on other parsers’ layouts', () => {
  test('clap long + short help, merged', () => {
    const s = spec(parseHelp(CLAP_LONG, CLAP_SHORT));
    expect(s.name).toBe('grep_lite');
    expect(s.description).toBe('Search files for a pattern\n\nSearches each FILE for lines matching PATTERN and prints them. Binary files\nare skipped.');
    expect(s.inputSchema).toEqual({
      type: 'object',
      properties: {
        file: { type: 'array', items: { type: 'string' }, description: 'Files to search; standard input when none are given' },
        pattern: { type: 'string', description: 'The regular expression to look for' },
        max_count: { type: 'integer', description: 'Stop after NUM matching lines', default: 100 },
        color: {
          type: 'string',
          description:
            'When to use colours\n\nPossible values:\n- auto:   Colour when writing to a terminal\n- always: Always colour\n- never:  Never colour',
          enum: ['auto', 'always', 'never'],
          default: 'auto',
        },
        ignore_case: { type: 'boolean', description: 'Match case-insensitively' },
        threshold: { type: 'number', description: 'Minimum similarity, from 0 to 1' },
        type: { type: 'array', items: { type: 'string' }, description: 'Only search files of this type (repeatable)' },
        quiet: { type: 'boolean', description: 'Print nothing, exit 0 on a match' }, // only in -h
      },
      required: ['pattern'],
      additionalProperties: false,
    });
  });

  test('argparse', () => {
    const s = spec(parseHelp(ARGPARSE));
    expect(s.name).toBe('resize_py');
    expect(s.description).toBe('Resize an image to the given width.\n\nExamples are in the README.');
    expect(s.inputSchema).toEqual({
      type: 'object',
      properties: {
        input: { type: 'string', description: 'the image to read' },
        output: { type: 'string', description: 'where to write the result (default: alongside the\ninput)' },
        width: { type: 'integer', description: 'target width in pixels' },
        scale: { type: 'number', description: 'scale factor, e.g. 0.5', default: 1 },
        mode: { type: 'string', description: 'how to fit the aspect ratio', enum: ['fit', 'fill', 'stretch'] },
        verbose: { type: 'boolean', description: 'print progress' },
      },
      required: ['input'],
      additionalProperties: false,
    });
    expect(s.options.find((o) => o.property === 'width')).toMatchObject({ short: 'W', long: 'width', valueName: 'WIDTH' });
  });

  test('cobra', () => {
    const s = spec(parseHelp(COBRA));
    expect(s.name).toBe('deploy');
    expect(s.summary).toBe('Deploy manages application deployments.');
    expect(s.commands).toEqual([
      { name: 'rollback', description: 'Roll back to a previous release' },
      { name: 'status', description: 'Show the rollout status' },
    ]);
    expect(s.inputSchema.properties).toEqual({
      dry_run: { type: 'boolean', description: 'print what would happen without doing it' },
      namespace: { type: 'string', description: 'Kubernetes namespace', default: 'default' },
      replicas: { type: 'integer', description: 'number of replicas', default: 3 },
      timeout: { type: 'string', description: 'how long to wait', default: '5m0s' },
      tags: { type: 'array', items: { type: 'string' }, description: 'tags to apply' },
      cpu: { type: 'number', description: 'CPU limit', default: 0.5 },
    });
  });

  test('Keywords and PermissionLevel lines', () => {
    const s = spec(parseHelp('t 1.0.0\nDo it.\n\nUsage: t\n\nKeywords: a, b,  c\nPermissionLevel: Execute\n'));
    expect(s.keywords).toEqual(['a', 'b', 'c']);
    expect(s.permissionLevel).toBe('execute');
    expect(parseHelp('t 1.0.0\n\nUsage: t\n\nPermissionLevel: root\n')).toEqual({
      type: 'parse_error',
      message: 'PermissionLevel must be one of none, read, write, execute',
    });
  });

  test('positionals come from the usage line when there is no Arguments section', () => {
    const s = spec(parseHelp('copy 0.2.0\nCopy files.\n\nUsage: copy [OPTIONS] <SRC> <DEST> [EXTRA]... --mode <MODE>\n'));
    expect(s.arguments.map((a) => [a.property, a.required, a.multiple])).toEqual([
      ['src', true, false],
      ['dest', true, false],
      ['extra', false, true],
    ]);
  });

  test('a positional whose name collides with an option is renamed', () => {
    const s = spec(parseHelp('t 1.0.0\n\nUsage: t [OPTIONS] <FILE>\n\nArguments:\n  <FILE>  input\n\nOptions:\n  --file <F>  output\n'));
    expect(Object.keys(s.inputSchema.properties)).toEqual(['file_arg', 'file']);
  });

  test('colour codes and CRLF are tolerated', () => {
    const s = spec(parseHelp('\x1b[1mt\x1b[0m 1.0.0\r\nDo.\r\n\r\n\x1b[1;4mUsage:\x1b[0m t <X>\r\n'));
    expect(s.arguments.map((a) => a.property)).toEqual(['x']);
  });

  test('text that is not help is rejected with a clear message', () => {
    const err: ParseError = {
      type: 'parse_error',
      message: 'this does not look like --help output: it has no "Usage:", "Options:", "Arguments:" or "Commands:" section',
    };
    expect(parseHelp('')).toEqual(err);
    expect(parseHelp('Segmentation fault (core dumped)\n')).toEqual(err);
    expect(parseHelp('{"error": false, "content": "42"}')).toEqual(err);
    expect(parseHelp('Note: usage is described elsewhere.\n')).toEqual(err);
  });
});
