/** A WebAssembly tool's capability manifest (`<name>.toml`). */
import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { MoatError, escapeRegExp } from '../../util/index.ts';

/**
 * A WebAssembly tool's capability manifest, `<name>.toml` beside its `.wasm`.
 * It is the whole of what the tool may touch: without one a tool gets no
 * files, no network and no environment. Unknown keys are errors (naming the
 * file, line and key), because a misspelt grant that is silently ignored is
 * a grant the author believes they have — or believe they have withheld.
 */

export type CwdAccess = 'none' | 'read' | 'read-write';

export interface PathGrant {
  /** Absolute host folder, mounted read-only. */
  host: string;
  /** Absolute path where the tool sees it, e.g. "/zoneinfo". */
  guest: string;
}

export interface ManifestLimits {
  fuel?: number;
  memoryBytes?: number;
  timeoutMs?: number;
}

export interface ToolManifest {
  cwd: CwdAccess;
  paths: PathGrant[];
  /** Hosts the tool may reach over wasi:http (`api.example.com`, `*.example.com`). */
  networkAllow: string[];
  /** Names of environment variables passed through. */
  env: string[];
  limits: ManifestLimits;
}

/** What a tool without a manifest gets: nothing. */
export const NO_MANIFEST: ToolManifest = Object.freeze({
  cwd: 'none',
  paths: [],
  networkAllow: [],
  env: [],
  limits: {},
}) as ToolManifest;

const absolute = z
  .string()
  .min(1)
  .refine((p) => p.startsWith('/'), 'must be an absolute path')
  .refine((p) => !p.split('/').includes('..'), 'must not contain ".."');

const schema = z.strictObject({
  env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')).default([]),
  filesystem: z
    .strictObject({
      cwd: z.enum(['none', 'read', 'read-write']).default('none'),
      paths: z
        .array(
          z.strictObject({
            host: absolute,
            // "/" is the working folder's mount point; an extra grant there would shadow it.
            guest: absolute.refine((p) => p !== '/', 'must not be "/" (that is the working folder)'),
          }),
        )
        .default([]),
    })
    .default({ cwd: 'none', paths: [] }),
  network: z.strictObject({ allow: z.array(z.string().min(1)).default([]) }).default({ allow: [] }),
  limits: z
    .strictObject({
      fuel: z.number().int().positive().max(1e13).optional(),
      memory_mb: z.number().int().min(1).max(4096).optional(),
      timeout_ms: z.number().int().min(1).max(600_000).optional(),
    })
    .default({}),
});

/** Parses manifest text; throws a `config` MoatError listing every problem with its line. */
export function parseManifest(text: string, file: string): ToolManifest {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    if (e instanceof TomlError) {
      throw new MoatError('config', `${file}:${e.line}:${e.column}: ${e.message.split('\n')[0] ?? 'invalid TOML'}`);
    }
    throw e;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.flatMap((issue) => describeIssue(issue, text, file));
    throw new MoatError('config', `invalid tool manifest:\n${lines.join('\n')}`);
  }
  const m = parsed.data;
  const limits: ManifestLimits = {};
  if (m.limits.fuel !== undefined) limits.fuel = m.limits.fuel;
  if (m.limits.memory_mb !== undefined) limits.memoryBytes = m.limits.memory_mb * 1024 * 1024;
  if (m.limits.timeout_ms !== undefined) limits.timeoutMs = m.limits.timeout_ms;
  return { cwd: m.filesystem.cwd, paths: m.filesystem.paths, networkAllow: m.network.allow, env: m.env, limits };
}

/** Reads `file`; a missing file is `undefined` (the caller then uses NO_MANIFEST). */
export async function readManifest(file: string): Promise<ToolManifest | undefined> {
  const f = Bun.file(file);
  if (!(await f.exists())) return undefined;
  return parseManifest(await f.text(), file);
}

function describeIssue(issue: z.core.$ZodIssue, text: string, file: string): string[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const full = [...path, key];
      return `${where(file, locateKey(text, full))}unknown key "${dotted(full)}"`;
    });
  }
  return [`${where(file, locateKey(text, path))}${dotted(path) || '(root)'}: ${issue.message}`];
}

function where(file: string, line: number | undefined): string {
  return line === undefined ? `${file}: ` : `${file}:${line}: `;
}

function dotted(path: readonly (string | number)[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[');
}

const KEY_LINE = /^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*=/;
const HEADER_LINE = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

function unquote(k: string): string {
  return k.replace(/^["']|["']$/g, '');
}

/**
 * The 1-based line of a key path such as ["filesystem", "paths", 0, "hots"].
 * smol-toml reports no key positions; manifests are small and flat, so a
 * line scan that tracks `[table]` headers is enough. Keys inside inline
 * tables are found by searching onward from their parent key's line.
 */
export function locateKey(text: string, path: readonly (string | number)[]): number | undefined {
  const names = path.filter((p): p is string => typeof p === 'string');
  if (names.length === 0) return undefined;
  const lines = text.split('\n');
  let table: string[] = [];
  let ancestor: number | undefined;
  for (const [i, line] of lines.entries()) {
    const header = HEADER_LINE.exec(line);
    if (header?.[1] !== undefined) {
      table = header[1].split('.').map((s) => unquote(s.trim()));
      if (same(table, names)) return i + 1;
      continue;
    }
    const kv = KEY_LINE.exec(line);
    if (kv?.[1] === undefined) continue;
    const full = [...table, unquote(kv[1])];
    if (same(full, names)) return i + 1;
    if (ancestor === undefined && full.length < names.length && same(full, names.slice(0, full.length))) ancestor = i;
  }
  const last = names[names.length - 1] ?? '';
  const inline = new RegExp(`(^|[\\s{,])["']?${escapeRegExp(last)}["']?\\s*=`);
  const from = ancestor ?? 0;
  // `paths = [{…}, {…}]`: TOML inline tables sit on one line, so element n is
  // on the line of the (n+1)-th "{" after the array's key.
  const index = path.find((p): p is number => typeof p === 'number');
  if (ancestor !== undefined && index !== undefined) {
    let seen = 0;
    for (let i = from; i < lines.length; i++) {
      for (const c of lines[i] ?? '') if (c === '{' && seen++ === index) return i + 1;
    }
  }
  for (let i = from; i < lines.length; i++) if (inline.test(lines[i] ?? '')) return i + 1;
  return ancestor === undefined ? undefined : ancestor + 1;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
