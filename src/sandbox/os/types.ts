/**
 * The OS sandbox's contract: the grants a process runs under, the modes, what
 * prepareCommand hands back, what a refusal looks like, and its typed errors.
 */
import type { ResourceLimits, SandboxLevel, SandboxMode } from '../../contracts/index.ts';

export type { ResourceLimits } from '../../contracts/index.ts';

/** What a process started by moat may touch. Paths are absolute; hosts use the NetworkGrant pattern syntax. */
export interface ProcessGrants {
  /** Absolute paths it may write; the system temp folder is always added. */
  allowWrite: string[];
  /** Extra read denies on top of the built-in list (~/.ssh, ~/.aws, …, moat's database and credentials). */
  denyRead: string[];
  /** Write denies, even inside allowWrite. */
  denyWrite: string[];
  /** Host patterns (host-pattern.ts syntax); [] = no network at all. */
  allowNetwork: string[];
  denyNetwork: string[];
  /** Unix socket paths it may connect to; [] = none. */
  allowUnixSockets: string[];
  /**
   * Let granted hosts resolve to private and loopback addresses (never cloud
   * metadata). Set only by the composition root (tests that serve on
   * 127.0.0.1); no config key or variable sets it.
   */
  allowPrivateNetwork?: boolean;
  /** Let granted hosts be loopback addresses (`[sandbox.network] allow_loopback`, user config only); never metadata or other private ones. */
  allowLoopback?: boolean;
  /** Through the filtering proxy even with no host allowed (it refuses every connection): refusals name their hosts. */
  observeNetwork?: boolean;
  /** The command's resource limits; unset ones take DEFAULT_LIMITS. */
  limits?: ResourceLimits;
}

/** One thing the sandbox refused, as the runtime reported it. */
export interface SandboxViolation {
  kind: 'write' | 'network' | 'limit';
  /** The path written to, `host:port` connected to, or the limit (`pids`, `memory`, `file-size`) reached. */
  target: string;
  /** One line for the model and the tool card: what was refused and why. */
  message: string;
}

export interface SandboxedCommand {
  /** Spawn this… */
  argv: string[];
  /** …with this environment (API keys and [sandbox] scrub_env patterns removed). */
  env: Record<string, string>;
  /** False when mode is off, or auto on a machine that cannot sandbox. */
  sandboxed: boolean;
  /** Why `sandboxed` is false in auto mode (one line), for the start-up notice and status. */
  unavailableReason?: string;
  /**
   * After the process exited: what the sandbox refused, and the limits reached (a file-size limit is known by the
   * exit code, when the caller passes it). Also releases what the command held (call it once).
   */
  finish(exit?: { code: number | null }): Promise<SandboxViolation[]>;
  /**
   * What the sandbox has refused so far, while the process still runs: a long-lived process (an MCP server) is told
   * between its requests, not only when it exits. None: nothing is observed (not sandboxed).
   */
  refusedSoFar?(): SandboxViolation[];
}

export interface PrepareOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  grants: ProcessGrants;
  mode: SandboxMode;
  /** Environment variable name patterns (`*` wildcards) removed on top of the provider keys. Default: DEFAULT_SCRUB_ENV. */
  scrubEnv?: string[];
  /** Violations that speak to the model name the level so they can say how to ask for more. */
  level?: SandboxLevel;
}

export type SandboxErrorCode = 'unavailable' | 'bad-grant';

/** Thrown when mode is 'required' and this machine cannot sandbox (or a grant cannot be applied). */
export class SandboxUnavailableError extends Error {
  readonly code: SandboxErrorCode;
  constructor(message: string, code: SandboxErrorCode = 'unavailable') {
    super(message);
    this.name = 'SandboxUnavailableError';
    this.code = code;
  }
}
