import { beforeAll, describe, expect, test } from 'bun:test';
import { buildNative, fails, ok } from './native.ts';

beforeAll(buildNative, 120_000);

const calc = async (expr: string, ...flags: string[]): Promise<string> => (await ok('calculate', [...flags, '--', expr])).content;

describe('calculate', () => {
  test('precedence, associativity and unary minus', async () => {
    expect(await calc('2 * (3 + 4)')).toBe('14');
    expect(await calc('2 + 3 * 4 - 6 / 2')).toBe('11');
    expect(await calc('2^3^2')).toBe('512'); // right-associative
    expect(await calc('-2^2')).toBe('-4'); // unary minus binds looser than ^
    expect(await calc('(-2)^2')).toBe('4');
    expect(await calc('2^-1')).toBe('0.5');
    expect(await calc('--3')).toBe('3');
    expect(await calc('3 ** 2')).toBe('9');
    expect(await calc('10 % 3')).toBe('1');
    expect(await calc('-7 % 3')).toBe('-1');
    expect(await calc('7.5 % 2')).toBe('1.5');
  });

  test('functions and constants', async () => {
    expect(await calc('sqrt(16) + abs(-3)')).toBe('7');
    expect(await calc('min(3, 1, 2) + max(4, 9)')).toBe('10');
    expect(await calc('log(1000)')).toBe('3');
    expect(await calc('log(8, 2)')).toBe('3');
    expect(await calc('ln(e)')).toBe('1');
    expect(await calc('exp(0)')).toBe('1');
    expect(await calc('floor(-2.5)')).toBe('-3');
    expect(await calc('ceil(2.1)')).toBe('3');
    expect(await calc('round(2.5)')).toBe('3'); // half away from zero
    expect(await calc('round(-2.5)')).toBe('-3');
    expect(await calc('pi', '-p', '4')).toBe('3.1416');
    expect(await calc('atan(1) * 4')).toBe('3.1415926536');
    expect(await calc('SQRT(4) + PI - pi')).toBe('2'); // names are case-insensitive
  });

  test('floating-point noise is rounded away, real small values are kept', async () => {
    expect(await calc('0.1 + 0.2')).toBe('0.3');
    expect(await calc('0.1 + 0.2 - 0.3')).toBe('0');
    expect(await calc('sin(pi)')).toBe('0');
    expect(await calc('cos(pi / 2)')).toBe('0');
    expect(await calc('1e-20')).toBe('1e-20');
    expect(await calc('3 * 1e-20')).toBe('3e-20');
    expect(await calc('2^100')).toBe('1.2676506002e30');
    expect(await calc('1/3', '--precision', '0')).toBe('0');
    expect(await calc('2/3', '--precision', '3')).toBe('0.667');
    expect(await calc('0.0000012345')).toBe('0.0000012345');
    expect(await calc('0.00000012345')).toBe('1.2345e-7');
    expect(await calc('123456789012345678')).toBe('1.2345678901e17');
  });

  test('overflow anywhere is an error; snapping keeps every result larger than its rounding error', async () => {
    expect(await fails('calculate', ['--', '2^1024 + 1'])).toBe('error: overflow: (2)^(1024) is too large to represent');
    expect(await fails('calculate', ['--', 'exp(1000) + 1'])).toBe('error: overflow: exp(…) is too large to represent');
    expect(await fails('calculate', ['--', '1e308 * 10 - 1e308'])).toBe('error: overflow: a product is too large to represent');
    expect(await fails('calculate', ['--', '1e309'])).toBe('error: overflow: a number is too large to represent');
    // Real small results stay (Python: 1.1102230246251565e-15, 2e-30, 2.220446049250313e-16).
    expect(await calc('1 + 1e-15 - 1')).toBe('1.1102230246e-15');
    expect(await calc('3e-30 - 1e-30', '-p', '3')).toBe('2e-30');
    expect(await calc('(1 + 2^-52) - 1', '-p', '15')).toBe('2.220446049250313e-16');
    // Decimal noise still goes: each of these is 0 exactly in decimal.
    expect(await calc('1.1 - 1.0 - 0.1')).toBe('0');
    expect(await calc('0.1 * 3 - 0.3')).toBe('0');
    expect(await calc('0.7 + 0.1 - 0.8')).toBe('0');
  });

  test('degrees mode converts trig inputs and inverse outputs', async () => {
    expect(await calc('sin(30)', '--mode', 'degrees')).toBe('0.5');
    expect(await calc('cos(180)', '--mode', 'degrees')).toBe('-1');
    expect(await calc('asin(1)', '--mode', 'degrees')).toBe('90');
    expect(await calc('sin(180)', '--mode', 'degrees')).toBe('0');
    expect(await fails('calculate', ['--mode', 'degrees', 'tan(90)'])).toBe('error: tan of 90 degrees is undefined');
  });

  test('metadata carries the expression and the numeric value', async () => {
    const r = await ok('calculate', ['1/4']);
    expect(r).toEqual({ error: false, content: '0.25', metadata: { expression: '1/4', value: 0.25, mode: 'radians' } });
  });

  test.each([
    ['1/0', 'error: division by zero'],
    ['5 % 0', 'error: modulo by zero'],
    ['0^-1', 'error: division by zero (0 raised to a negative power)'],
    ['sqrt(-4)', 'error: sqrt of a negative number (-4)'],
    ['ln(0)', 'error: logarithm of a non-positive number (0)'],
    ['log(8, 1)', 'error: invalid logarithm base 1'],
    ['asin(2)', 'error: asin of 2 is undefined'],
    ['(-8)^(1/3)', 'error: (-8)^(0.3333333333333333) is not a real number'],
    ['2^1024', 'error: overflow: (2)^(1024) is too large to represent'],
    ['', 'error: the expression is empty'],
    ['2 +', 'error: expected a number but the expression ended'],
    ['(1 + 2', "error: expected ')' but the expression ended"],
    ['1 + 2)', "error: unmatched ')' at position 6"],
    ['2(3)', "error: expected an operator between '2' and '(' at position 2"],
    ['2pi', "error: expected an operator between '2' and 'pi' at position 2"],
    ['1.2.3', 'error: invalid number at position 1: more than one decimal point'],
    ['3 $ 4', "error: unexpected character '$' at position 3"],
    ['sqrt', "error: 'sqrt' is a function; call it like sqrt(x)"],
    ['sqrt(1, 2)', 'error: sqrt expects 1 argument, got 2'],
    ['max()', "error: expected a number at position 5, found ')'"],
  ])('%p is a clear error', async (expr, message) => {
    expect(await fails('calculate', ['--', expr])).toBe(message);
  });

  test('no code execution: names are only the fixed functions and constants', async () => {
    expect(await fails('calculate', ['__import__("os")'])).toBe('error: unexpected character \'"\' at position 12');
    const err = await fails('calculate', ['__import__(os)']);
    expect(err).toStartWith("error: unknown name '__import__' at position 1 (functions: sqrt, sin,");
    expect(await fails('calculate', ['process.exit(1)'])).toBe("error: unexpected character '.' at position 8");
    expect(await fails('calculate', ['exit(1)'])).toStartWith("error: unknown name 'exit' at position 1");
  });

  test('deep nesting is refused instead of overflowing the stack', async () => {
    expect(await calc(`${'('.repeat(150)}1${')'.repeat(150)}`)).toBe('1');
    expect(await fails('calculate', [`${'('.repeat(500)}1${')'.repeat(500)}`])).toBe(
      'error: the expression is nested too deeply (more than 200 levels)',
    );
    expect(await fails('calculate', ['--', `${'-'.repeat(500)}1`])).toBe('error: the expression is nested too deeply (more than 200 levels)');
  });

  test('usage errors exit 2 with clap-style messages', async () => {
    expect(await fails('calculate', [], { code: 2 })).toStartWith('error: the following required arguments were not provided:\n  <EXPRESSION>');
    expect(await fails('calculate', ['--mode', 'grad', '1'], { code: 2 })).toStartWith(
      "error: invalid value 'grad' for '--mode': possible values are radians, degrees",
    );
    expect(await fails('calculate', ['--precision', '99', '1'])).toBe('error: --precision must be a whole number from 0 to 15');
  });

  test('a leading minus is an expression, not a flag', async () => {
    expect((await ok('calculate', ['-5+1'])).content).toBe('-4');
  });
});
