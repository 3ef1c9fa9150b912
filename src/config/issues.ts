/** Turns zod issues into short, keyed config problems. */
import type { z } from 'zod';
import { knownKeys, RESERVED_SECTIONS } from './schema.ts';

/** One problem with a value: where (as zod paths go) and, in a few words, what. */
export interface ConfigProblem {
  path: (string | number)[];
  message: string;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

function short(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 39)}…` : s);
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') return `a string (${short(v)})`;
  if (typeof v === 'number') return `a number (${v})`;
  if (typeof v === 'boolean') return `a boolean (${v})`;
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a date';
  if (v !== null && typeof v === 'object') return 'a table';
  return String(v);
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'a table',
};

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

function unknownKey(parent: readonly (string | number)[], key: string): string {
  if (parent.length === 0 && RESERVED_SECTIONS.includes(key)) return 'not supported by this version of moat';
  const wildcard = parent.map((p, i) => (i % 2 === 1 ? '*' : String(p))).join('.');
  const known = knownKeys()[parent.join('.')] ?? knownKeys()[wildcard] ?? [];
  const close = known
    .map((k) => ({ k, d: editDistance(key.toLowerCase(), k) }))
    .filter((c) => c.d <= 2)
    .sort((a, b) => a.d - b.d)[0];
  return close ? `unknown key (did you mean ${close.k}?)` : 'unknown key';
}

/**
 * Turns zod's issues into short messages a person can act on. `raw` is the
 * validated input, used to say what was found ("expected a whole number,
 * got a string ("ten")").
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], raw: unknown): ConfigProblem[] {
  return issues.flatMap((issue): ConfigProblem[] => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    switch (issue.code) {
      case 'unrecognized_keys':
        return issue.keys.map((k) => ({ path: [...path, k], message: unknownKey(path, k) }));
      case 'invalid_type': {
        const expected = EXPECTED[issue.expected] ?? issue.expected;
        return [{ path, message: `expected ${expected}, got ${describeValue(valueAt(raw, path))}` }];
      }
      case 'too_small': {
        const min = Number(issue.minimum);
        if (issue.origin === 'string') return [{ path, message: 'must not be empty' }];
        const bound = issue.inclusive ? `at least ${min}` : `greater than ${min}`;
        return [{ path, message: `must be ${bound} (got ${String(valueAt(raw, path))})` }];
      }
      case 'invalid_value': {
        const v = valueAt(raw, path);
        const got = typeof v === 'string' ? short(v) : describeValue(v);
        return [{ path, message: `must be one of ${issue.values.map(String).join(', ')} (got ${got})` }];
      }
      default:
        return [{ path, message: issue.message }];
    }
  });
}
