/** The Glob tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { expandHome } from '../../paths.ts';

export const inputSchema = once(() =>
  z.strictObject({
    pattern: z.string().min(1).describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.{ts,tsx}".'),
    path: z
      .string()
      .optional()
      .describe('The folder to search in: absolute, or relative to the working folder. Omit it to search the working folder.'),
  }),
);

export type GlobInput = z.infer<ReturnType<typeof inputSchema>>;

const MAGIC = /[*?[\]{}!]/;

/**
 * Split a pattern into its literal leading folders and the rest, so the walk
 * starts at `src/components` for `src/components/**\/*.tsx` instead of at the
 * top. The last segment always stays in the pattern (it names the files).
 */
export function splitStaticPrefix(pattern: string): { prefix: string; rest: string } {
  const segments = pattern.split('/');
  let i = 0;
  while (i < segments.length - 1 && !MAGIC.test(segments[i] ?? '')) i++;
  const prefix = segments.slice(0, i).join('/');
  return { prefix: pattern.startsWith('/') && prefix === '' ? '/' : prefix, rest: segments.slice(i).join('/') };
}

/** Where to search and what to match there: an absolute pattern carries its own folder. */
export function plan(pattern: string, path: string | undefined): { base: string | undefined; pattern: string } {
  const p = expandHome(pattern);
  if (!p.startsWith('/')) return { base: path, pattern: p.startsWith('./') ? p.slice(2) : p };
  const { prefix, rest } = splitStaticPrefix(p);
  return { base: prefix, pattern: rest };
}
