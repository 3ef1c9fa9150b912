import { describe, expect, test } from 'bun:test';
import { ToolError } from '../../../src/tools/index.ts';
import { isParseError, parseHelp, toArgs, type ToolSpecFromHelp } from '../../../src/tools/wasm/index.ts';
import { CLAP_SHORT } from './help-samples.ts';

const CALC = `calculate 0.1.0
Evaluate an arithmetic expression safely.

Usage: calculate [OPTIONS] <EXPRESSION>

Arguments:
  <EXPRESSION>  The expression

Options:
  -p, --precision <DIGITS>  Digits after the decimal point [default: 10]
      --mode <MODE>         Angle unit [default: radians] [possible values: radians, degrees]
  -s <LABEL>                A label
      --exact <BOOL>        Exact mode [possible values: true, false]
  -h, --help                Print help
`;

function parsed(text: string): ToolSpecFromHelp {
  const s = parseHelp(text);
  if (isParseError(s)) throw new Error(s.message);
  return s;
}

function errorOf(spec: ToolSpecFromHelp, input: unknown): string {
  try {
    toArgs(spec, input);
  } catch (e) {
    if (e instanceof ToolError) return e.message;
    throw e;
  }
  throw new Error('expected a ToolError');
}

describe('toArgs', () => {
  const calc = parsed(CALC);
  const grep = parsed(CLAP_SHORT);

  test('options as --flag value, positionals last, in order', () => {
    expect(toArgs(calc, { expression: '2 * 3' })).toEqual(['2 * 3']);
    expect(toArgs(calc, { expression: '1/3', precision: 3, mode: 'degrees' })).toEqual(['--precision', '3', '--mode', 'degrees', '1/3']);
    expect(toArgs(calc, { expression: 'x', s: 'big' })).toEqual(['-s', 'big', 'x']);
    expect(toArgs(calc, { expression: 'x', exact: false })).toEqual(['--exact', 'false', 'x']);
  });

  test('a positional that starts with "-" comes after "--"', () => {
    expect(toArgs(calc, { expression: '-2^2' })).toEqual(['--', '-2^2']);
  });

  test('an option value that starts with "-" is attached with "="', () => {
    expect(toArgs(calc, { expression: '1', precision: -1 })).toEqual(['--precision=-1', '1']);
    expect(toArgs(calc, { expression: '1', s: '-x' })).toEqual(['-s-x', '1']);
  });

  test('booleans are presence flags; arrays repeat options and spread positionals', () => {
    expect(toArgs(grep, { pattern: 'a+', ignore_case: true, quiet: false, type: ['rs', 'ts'], file: ['a.txt', 'b.txt'] })).toEqual([
      '--pattern',
      'a+',
      '--ignore-case',
      '--type',
      'rs',
      '--type',
      'ts',
      'a.txt',
      'b.txt',
    ]);
  });

  test('subcommand tools put their path first', () => {
    const sub = { ...parsed('base64-encode 0.1.0\n\nUsage: base64 encode [OPTIONS] [TEXT]\n\nOptions:\n      --url-safe  URL\n'), argvPrefix: ['encode'] };
    expect(toArgs(sub, { text: 'hi', url_safe: true })).toEqual(['encode', '--url-safe', 'hi']);
  });

  test('null and undefined mean "not given"', () => {
    expect(toArgs(calc, { expression: '1', precision: null, mode: undefined })).toEqual(['1']);
  });

  test('every problem is listed at once', () => {
    expect(errorOf(calc, { precision: 2.5, mode: 'grad', expr: '1', exact: 'yes' })).toBe(
      [
        'Invalid input for calculate:',
        '- unknown property "expr" (known: precision, mode, s, exact, expression)',
        '- missing required property "expression"',
        '- "precision" must be an integer, not number 2.5',
        '- "mode" must be one of "radians", "degrees", not "grad"',
        '- "exact" must be a boolean, not the string "yes"',
      ].join('\n'),
    );
  });

  test('array items are checked one by one', () => {
    expect(errorOf(grep, { pattern: 'x', type: ['rs', 3], file: 'a.txt', max_count: '5', color: 'pink' })).toBe(
      [
        'Invalid input for grep_lite:',
        '- "file" must be an array of string values, not the string "a.txt"',
        '- "max_count" must be an integer, not the string "5"',
        '- "color" must be one of "auto", "always", "never", not "pink"',
        '- "type[1]" must be a string, not number 3',
      ].join('\n'),
    );
  });

  test('input must be an object', () => {
    expect(errorOf(calc, ['1'])).toBe('Invalid input for calculate: expected a JSON object, got an array.');
    expect(errorOf(calc, '1')).toBe('Invalid input for calculate: expected a JSON object, got the string "1".');
  });

  test('positionals cannot skip an optional one', () => {
    const two = parsed('t 1.0.0\n\nUsage: t [A] [B]\n');
    expect(toArgs(two, { a: 'x', b: 'y' })).toEqual(['x', 'y']);
    expect(errorOf(two, { b: 'y' })).toBe('Invalid input for t:\n- "b" needs "a" to be given too (they are positional)');
  });
});
