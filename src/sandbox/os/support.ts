/**
 * Whether this machine can run the OS sandbox: the platform's backend
 * (backend.ts) installed, and able to start (bubblewrap's user namespaces,
 * Seatbelt's sandbox_apply). Probed once per PATH and cached.
 */
import { existsSync } from 'node:fs';
import { childProcess } from '../../util/index.ts';
import { chooseBackend, type BackendChoice, type SandboxHost } from './backend.ts';

export type SandboxSupport = BackendChoice;

const probes = new Map<string, SandboxSupport>();
const found = new Map<string, SandboxSupport>();

/** This machine, looking for programs on `path`. */
function thisHost(path: string): SandboxHost {
  return { platform: process.platform, which: (name) => Bun.which(name, { PATH: path }) ?? undefined, exists: existsSync };
}

/** bubblewrap must actually create the namespaces: some containers and hardened kernels forbid it. */
function probeNamespaces(bwrap: string): string | undefined {
  const r = childProcess().spawnSync(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 5000,
    encoding: 'utf8',
  });
  if (r.error !== undefined) return `bubblewrap (${bwrap}) could not be started: ${r.error.message}`;
  if (r.status === 0) return undefined;
  const why = (r.stderr ?? '').trim().split('\n')[0] ?? '';
  return `bubblewrap cannot create namespaces here${why === '' ? '' : ` (${why})`}; user namespaces may be disabled (kernel.unprivileged_userns_clone, or a container without them)`;
}

/** Seatbelt must be able to apply a profile: it cannot inside another sandbox (an app's, or moat run by a sandboxed agent). */
function probeSeatbelt(sandboxExec: string): string | undefined {
  const r = childProcess().spawnSync(sandboxExec, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5000, encoding: 'utf8' });
  if (r.error !== undefined) return `sandbox-exec (${sandboxExec}) could not be started: ${r.error.message}`;
  if (r.status === 0) return undefined;
  const why = (r.stderr ?? '').trim().split('\n')[0] ?? '';
  return `sandbox-exec cannot apply a profile here${why === '' ? '' : ` (${why})`}; moat may itself be running inside a sandbox`;
}

/** Without starting anything: the platform's backend and its programs. Cheap enough for start-up. */
export function sandboxInstalled(env: Readonly<Record<string, string | undefined>> = process.env): SandboxSupport {
  const path = env.PATH ?? '';
  const cached = found.get(path);
  if (cached !== undefined) return cached;
  const result = chooseBackend(thisHost(path));
  found.set(path, result);
  return result;
}

/**
 * Whether processes can be sandboxed here: installed, and bubblewrap can
 * create its namespaces (started once per PATH, ~5 ms, on first use).
 */
export function sandboxSupport(env: Readonly<Record<string, string | undefined>> = process.env): SandboxSupport {
  const path = env.PATH ?? '';
  const cached = probes.get(path);
  if (cached !== undefined) return cached;
  let result = sandboxInstalled(env);
  const broken = !result.available ? undefined : result.bwrap !== undefined ? probeNamespaces(result.bwrap) : result.sandboxExec !== undefined ? probeSeatbelt(result.sandboxExec) : undefined;
  if (broken !== undefined) result = { ...result, available: false, reason: broken };
  probes.set(path, result);
  return result;
}
