/**
 * calculate against Python: 400 random expressions, each evaluated by the
 * tool and by CPython's floats and math module (the independent reference),
 * must agree — the same value within rounding, or both refusing (division by
 * zero, a domain error, an overflow, a complex result).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { buildNative, runNative, type Envelope } from './native.ts';

beforeAll(buildNative, 120_000);

/** A small seeded generator (mulberry32), so a failure names a case that can be run again. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FUNCTIONS = ['sqrt', 'abs', 'ln', 'exp', 'floor', 'ceil', 'sin', 'cos', 'tan', 'atan', 'asin', 'acos', 'log'];

function expression(next: () => number, depth: number): string {
  const pick = <T,>(xs: T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const r = next();
  if (depth <= 0 || r < 0.25) {
    const kind = next();
    if (kind < 0.45) return String(Math.floor(next() * 21));
    if (kind < 0.85) return (next() * 100).toFixed(Math.ceil(next() * 3));
    return `${(next() * 9 + 1).toFixed(2)}e${Math.floor(next() * 13) - 6}`;
  }
  if (r < 0.35) return `-${expression(next, depth - 1)}`;
  if (r < 0.45) return `(${expression(next, depth - 1)})`;
  if (r < 0.65) {
    const f = pick(FUNCTIONS);
    if (f === 'log' && next() < 0.5) return `log(${expression(next, depth - 1)}, ${expression(next, depth - 1)})`;
    return `${f}(${expression(next, depth - 1)})`;
  }
  if (r < 0.7) return `${pick(['min', 'max'])}(${expression(next, depth - 1)}, ${expression(next, depth - 1)}, ${expression(next, depth - 1)})`;
  const op = pick(['+', '-', '*', '/', '%', '^', '+', '-', '*']);
  // Keep powers small enough that most of them are finite, so values are compared, not only errors.
  const right = op === '^' ? pick(['2', '3', '0.5', '-1', '-2', '1.5', expression(next, 0)]) : expression(next, depth - 1);
  return `${expression(next, depth - 1)} ${op} ${right}`;
}

/** Python's reading of the same expressions: literals as floats, ^ as **, % as fmod (the tool's sign rule). */
const PYTHON = String.raw`
import json, math, re, sys
NAMES = {'sqrt': math.sqrt, 'abs': abs, 'ln': math.log, 'exp': math.exp,
  'floor': lambda x: float(math.floor(x)), 'ceil': lambda x: float(math.ceil(x)),
  'sin': math.sin, 'cos': math.cos, 'tan': math.tan, 'atan': math.atan, 'asin': math.asin, 'acos': math.acos,
  'log': lambda x, b=None: math.log10(x) if b is None else math.log(x, b), 'min': min, 'max': max, 'fmod': math.fmod, 'float': float}
def translate(e):
  e = re.sub(r'(\d+(\.\d+)?(e-?\d+)?)', r'float("\1")', e)
  return e.replace('^', '**')
def fmod_ops(e):
  # a % b binds like * in both; rewrite through Python's AST so fmod gets the same operands.
  import ast
  tree = ast.parse(e, mode='eval')
  class T(ast.NodeTransformer):
    def visit_BinOp(self, node):
      self.generic_visit(node)
      if isinstance(node.op, ast.Mod):
        return ast.Call(func=ast.Name('fmod', ast.Load()), args=[node.left, node.right], keywords=[])
      return node
  return ast.fix_missing_locations(T().visit(tree))
for line in sys.stdin:
  e = json.loads(line)
  try:
    v = eval(compile(fmod_ops(translate(e)), '<e>', 'eval'), {'__builtins__': {}}, NAMES)
    if isinstance(v, complex) or math.isinf(v) or math.isnan(v): out = {'error': type(v).__name__}
    else: out = {'value': v}
  except (ZeroDivisionError, ValueError, OverflowError, TypeError) as x:  # TypeError: a complex intermediate
    out = {'error': type(x).__name__}
  print(json.dumps(out))
`;

interface PythonAnswer {
  value?: number;
  error?: string;
}

/** The largest literal in an expression: the scale of the rounding noise the tool may snap to 0. */
function scale(expr: string): number {
  return Math.max(1, ...(expr.match(/\d+(\.\d+)?(e-?\d+)?/g) ?? []).map(Number));
}

describe('calculate agrees with Python', () => {
  test('400 random expressions: the same value, or both refuse', async () => {
    const next = rng(20261125);
    const exprs = Array.from({ length: 400 }, () => expression(next, 4));
    const py = Bun.spawnSync(['python3', '-c', PYTHON], { stdin: new TextEncoder().encode(exprs.map((e) => JSON.stringify(e)).join('\n') + '\n') });
    expect(py.stderr.toString()).toBe('');
    expect(py.exitCode).toBe(0);
    const answers = py.stdout.toString().trim().split('\n').map((l) => JSON.parse(l) as PythonAnswer);
    expect(answers.length).toBe(exprs.length);

    const disagreements: string[] = [];
    let values = 0;
    await Promise.all(
      exprs.map(async (expr, i) => {
        const want = answers[i] as PythonAnswer;
        const r = await runNative('calculate', ['--', expr]);
        if (want.error !== undefined) {
          if (r.exitCode !== 1) disagreements.push(`${expr}: Python refuses (${want.error}), the tool answered ${r.stdout}`);
          return;
        }
        if (r.exitCode !== 0) {
          disagreements.push(`${expr}: Python gives ${want.value}, the tool refused: ${r.stderr.trim()}`);
          return;
        }
        values++;
        const got = (JSON.parse(r.stdout) as Envelope).metadata.value as number;
        const expected = want.value as number;
        // Equal up to rounding: the tool shows 10 digits after the point (half a unit of the last
        // is 5e-11), else relative to the result, or to the operands when the result is cancellation noise.
        const tolerance = Math.max(5.000001e-11, 1e-9 * Math.abs(expected), 1e-15 * scale(expr));
        if (!(Math.abs(got - expected) <= tolerance)) disagreements.push(`${expr}: Python ${expected}, tool ${got}`);
      }),
    );
    expect(disagreements).toEqual([]);
    // The generator must exercise values, not only errors.
    expect(values).toBeGreaterThan(150);
  }, 60_000);
});
