/** A WebAssembly tool's capability manifest (`<name>.toml`). */
import { formatKeyPath } from '../../contracts/index.ts';
import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { lineOfPath, MoatError, once, outlineToml, type TomlOutline } from '../../util/index.ts';

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

const absolute = () =>
  z
    .string()
    .min(1)
    .refine((p) => p.startsWith('/'), 'must be an absolute path')
    .refine((p) => !p.split('/').includes('..'), 'must not contain ".."');

// Built when the first manifest is read: most runs read none (the bundled tools' manifests are precompiled).
const schema = once(() => z.strictObject({
  env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')).default([]),
  filesystem: z
    .strictObject({
      cwd: z.enum(['none', 'read', 'read-write']).default('none'),
      paths: z
        .array(
          z.strictObject({
            host: absolute(),
            // "/" is the working folder's mount point; an extra grant there would shadow it.
            guest: absolute().refine((p) => p !== '/', 'must not be "/" (that is the working folder)'),
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
}));

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
  const parsed = schema().safeParse(raw);
  if (!parsed.success) {
    const outline = outlineToml(text);
    const lines = parsed.error.issues.flatMap((issue) => describeIssue(issue, outline, file));
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

function describeIssue(issue: z.core.$ZodIssue, outline: TomlOutline, file: string): string[] {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const full = [...path, key];
      return `${where(file, locateKey(outline, full))}unknown key "${formatKeyPath(full)}"`;
    });
  }
  return [`${where(file, locateKey(outline, path))}${formatKeyPath(path) || '(root)'}: ${issue.message}`];
}

function where(file: string, line: number | undefined): string {
  return line === undefined ? `${file}: ` : `${file}:${line}: `;
}

/** The line of a key path such as ["filesystem", "paths", 0, "hots"]; none for the document as a whole. */
function locateKey(outline: TomlOutline, path: readonly (string | number)[]): number | undefined {
  return path.some((p) => typeof p === 'string') ? lineOfPath(outline, path) : undefined;
}
