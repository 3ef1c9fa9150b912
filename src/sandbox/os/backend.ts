/**
 * Which OS sandbox backend this platform has: bubblewrap on Linux (with socat
 * for its network relays, util-linux's setpriv and prlimit), Seatbelt (`sandbox-exec`) on macOS, none on
 * Windows or elsewhere. Only looks for the programs; whether the backend can
 * start is probed by support.ts. The host is a parameter, so every platform's
 * choice is tested on any of them.
 */

export type SandboxBackend = 'bubblewrap' | 'seatbelt';

/** What the choice looks at. */
export interface SandboxHost {
  platform: NodeJS.Platform;
  /** A program on PATH, or undefined. */
  which(name: string): string | undefined;
  exists(path: string): boolean;
}

export interface BackendChoice {
  available: boolean;
  platform: NodeJS.Platform;
  backend?: SandboxBackend;
  /** One line: why it cannot run here, with what to install or change. */
  reason?: string;
  bwrap?: string;
  socat?: string;
  /** util-linux's setpriv: drops the command's capabilities and sets no_new_privs. */
  setpriv?: string;
  /** util-linux's prlimit: the command's resource limits where no cgroup can be made. */
  prlimit?: string;
  /** Seatbelt's command (always /usr/bin/sandbox-exec: the one on PATH could be anyone's). */
  sandboxExec?: string;
}

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

export function chooseBackend(host: SandboxHost): BackendChoice {
  const { platform } = host;
  switch (platform) {
    case 'linux': {
      const bwrap = host.which('bwrap');
      const socat = host.which('socat');
      const setpriv = host.which('setpriv');
      const prlimit = host.which('prlimit');
      const missing = (reason: string): BackendChoice => ({ available: false, platform, backend: 'bubblewrap', reason });
      if (bwrap === undefined) return missing('bubblewrap (bwrap) is not on PATH; install it (Debian/Ubuntu: apt install bubblewrap socat)');
      if (socat === undefined) return missing('socat is not on PATH; install it (Debian/Ubuntu: apt install socat)');
      if (setpriv === undefined || prlimit === undefined) return missing(`${setpriv === undefined ? 'setpriv' : 'prlimit'} (util-linux) is not on PATH; install it (Debian/Ubuntu: apt install util-linux)`);
      return { available: true, platform, backend: 'bubblewrap', bwrap, socat, setpriv, prlimit };
    }
    case 'darwin':
      if (!host.exists(SANDBOX_EXEC)) return { available: false, platform, backend: 'seatbelt', reason: `${SANDBOX_EXEC} is missing; macOS ships it, so this system has been altered` };
      return { available: true, platform, backend: 'seatbelt', sandboxExec: SANDBOX_EXEC };
    case 'win32':
      return { available: false, platform, reason: 'Windows has no OS sandbox for the processes moat starts (bash, hooks, MCP servers)' };
    default:
      return { available: false, platform, reason: `the OS sandbox is not implemented on ${platform} (Linux: bubblewrap, macOS: Seatbelt)` };
  }
}
