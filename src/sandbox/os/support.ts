/**
 * Whether this machine can run the OS sandbox: Linux with bubblewrap, socat and
 * util-linux's setpriv and prlimit on PATH and user namespaces that work.
 * Probed once per PATH and cached.
 */
import { childProcess } from '../../util/index.ts';

export interface SandboxSupport {
  available: boolean;
  platform: NodeJS.Platform;
  /** One line: why it cannot run here, with what to install or change. */
  reason?: string;
  bwrap?: string;
  socat?: string;
  /** util-linux's setpriv: drops the command's capabilities and sets no_new_privs. */
  setpriv?: string;
  /** util-linux's prlimit: the command's resource limits where no cgroup can be made. */
  prlimit?: string;
}

const probes = new Map<string, SandboxSupport>();
const found = new Map<string, SandboxSupport>();

function unavailable(reason: string): SandboxSupport {
  return { available: false, platform: process.platform, reason };
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

/** Without starting anything: the platform, and bubblewrap and socat on PATH. Cheap enough for start-up. */
export function sandboxInstalled(env: Readonly<Record<string, string | undefined>> = process.env): SandboxSupport {
  const path = env.PATH ?? '';
  const cached = found.get(path);
  if (cached !== undefined) return cached;
  let result: SandboxSupport;
  if (process.platform !== 'linux') {
    result = unavailable(`the OS sandbox is not implemented on ${process.platform} yet (Linux only: bubblewrap)`);
  } else {
    const bwrap = Bun.which('bwrap', { PATH: path }) ?? undefined;
    const socat = Bun.which('socat', { PATH: path }) ?? undefined;
    const setpriv = Bun.which('setpriv', { PATH: path }) ?? undefined;
    const prlimit = Bun.which('prlimit', { PATH: path }) ?? undefined;
    if (bwrap === undefined) result = unavailable('bubblewrap (bwrap) is not on PATH; install it (Debian/Ubuntu: apt install bubblewrap socat)');
    else if (socat === undefined) result = unavailable('socat is not on PATH; install it (Debian/Ubuntu: apt install socat)');
    else if (setpriv === undefined || prlimit === undefined) result = unavailable(`${setpriv === undefined ? 'setpriv' : 'prlimit'} (util-linux) is not on PATH; install it (Debian/Ubuntu: apt install util-linux)`);
    else result = { available: true, platform: process.platform, bwrap, socat, setpriv, prlimit };
  }
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
  if (result.available && result.bwrap !== undefined) {
    const broken = probeNamespaces(result.bwrap);
    if (broken !== undefined) result = { ...result, ...unavailable(broken) };
  }
  probes.set(path, result);
  return result;
}
