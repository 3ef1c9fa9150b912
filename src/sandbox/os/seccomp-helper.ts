/**
 * The sandbox runtime's seccomp loader (it blocks creating Unix and VM sockets
 * inside the sandbox). `bun build --compile` embeds it; the kernel cannot exec
 * a file inside the executable, so it is copied once to the cache folder,
 * under a name keyed by its hash, and run from there. scripts/build.ts embeds
 * only the build machine's architecture's loader (the other one's import is
 * an empty file) and compresses it; `readEmbedded` undoes that.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import arm64 from '@anthropic-ai/sandbox-runtime/vendor/seccomp/arm64/apply-seccomp' with { type: 'file' };
import x64 from '@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp' with { type: 'file' };
import { readEmbedded } from '../embedded-file.ts';
import { homeOf } from '../../util/index.ts';

const EMBEDDED: Partial<Record<string, string>> = { x64, arm64 };

let extracted: string | null | undefined;

function cacheRoot(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homeOf(env), '.cache');
  return join(base, 'moat', 'helpers');
}

/**
 * The path of an executable apply-seccomp for this CPU, or null when there is
 * none (another architecture): Unix sockets are then not blocked, which
 * `moat sandbox status` says.
 */
export function applySeccompPath(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  if (extracted !== undefined) return extracted;
  const embedded = EMBEDDED[process.arch];
  if (embedded === undefined) return (extracted = null);
  const bytes = readEmbedded(embedded);
  if (bytes.length === 0) return (extracted = null); // not embedded in this build (another architecture's)
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const dir = join(cacheRoot(env), hash);
  const target = join(dir, 'apply-seccomp');
  // Checked once per process: a file left by an older or tampered copy is replaced, not run.
  const intact = existsSync(target) && createHash('sha256').update(readFileSync(target)).digest('hex').startsWith(hash);
  if (!intact) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written beside and renamed, so a concurrent moat never runs a half-written file.
    const partial = `${target}.${process.pid}.tmp`;
    writeFileSync(partial, bytes, { mode: 0o755 });
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  }
  return (extracted = target);
}

let denied: string | undefined;

/**
 * An empty file nobody may read (mode 000, and the sandbox has no capability
 * to override that): denied files are masked with it, so reading one fails
 * with "Permission denied" rather than looking empty. Kept in the cache
 * folder, outside every root a sandboxed process may write.
 */
export function deniedFilePath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (denied !== undefined) return denied;
  const dir = cacheRoot(env);
  const target = join(dir, 'denied');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(target)) writeFileSync(target, '', { mode: 0o000 });
    chmodSync(target, 0o000);
    denied = target;
  } catch {
    // A cache folder we cannot write: an empty device is still a mask, it only reads as empty.
    denied = '/dev/null';
  }
  return denied;
}
