/**
 * The OS sandbox policy as every layer names it: the modes `[sandbox] mode`
 * takes, the two grant levels a permission mode chooses between, the
 * configuration config/ resolves, and the policy a session runs processes
 * under. Behaviour lives in sandbox/ (running) and tools/ (building the policy
 * from rules); these are only the shapes they share.
 */

export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;
/** `auto`: sandbox when this machine can; `required`: refuse to run a process it cannot sandbox; `off`: never. */
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** The two grant levels the permission modes choose between. */
export type SandboxLevel = 'read-only' | 'workspace-write';

/** The grants one command runs with: a sandbox level, or none (the user approved running it outside). */
export type SandboxGrant = SandboxLevel | 'off';

/** The `[sandbox]` part of the config, as config/ resolves it (camelCase, absolute paths, layers merged). */
export interface SandboxConfig {
  mode: SandboxMode;
  /** Replaces the sandbox's default patterns when set (user config, environment or flags). */
  scrubEnv: string[] | undefined;
  /** Added on top of `scrubEnv` (or the defaults) by a project. */
  scrubEnvExtra: string[];
  /** Absolute paths. */
  allowWrite: string[];
  denyRead: string[];
  denyWrite: string[];
  /** Host patterns. */
  allowNetwork: string[];
  denyNetwork: string[];
  /** Absolute paths of Unix sockets (`[sandbox.network] allow_unix_sockets`). */
  allowUnixSockets: string[];
  /** `[sandbox.network] allow_loopback`: user config only. */
  allowLoopback?: boolean;
  /** `[sandbox] pids_limit`, `memory_limit`, `file_size_limit`; a project may only lower them. */
  limits?: ResourceLimits;
}

/** What one sandboxed command may use at once (cgroup where moat can make one, else setrlimit per process). */
export interface ResourceLimits {
  /** Processes and threads. */
  pids?: number;
  memoryBytes?: number;
  /** The largest file it may write. */
  fileSizeBytes?: number;
}

/** Where a permission rule's path is anchored: `//abs`, `~/home`, or the project (relative or `/x`). */
export type PathAnchor = 'absolute' | 'home' | 'project';

/** A `Read(…)`/`Edit(…)` rule's path, kept as a pattern so each command resolves it against the files there now. */
export interface PathPattern {
  anchor: PathAnchor;
  /** The gitignore pattern, relative to the anchor folder; empty means everything under it. */
  glob: string;
  /** For `x/**`, the pattern for the folder `x` itself. */
  folderGlob: string | null;
}

export interface PathBases {
  projectRoot: string;
  home: string;
}

/** `Read(…)` and `Edit(…)` deny rules, kept as patterns: each command resolves them. */
export interface DenyPathRules {
  read: PathPattern[];
  write: PathPattern[];
  bases: PathBases;
}

/** The policy a session runs processes under (built once from `[sandbox]` config and the permission rules). */
export interface SandboxPolicy {
  mode: SandboxMode;
  /** False when mode is off, or auto on a machine that cannot sandbox: bash then asks as it did before. */
  active: boolean;
  /** Why it is not active (auto on a machine without it), for the start-up line and status. */
  unavailableReason?: string;
  scrubEnv: string[];
  /** Extra write roots for workspace-write, beyond the working folder and --add-dir folders. */
  allowWrite: string[];
  /** From `[sandbox.filesystem]`; the deny rules' paths are added per command (denyRules). */
  denyRead: string[];
  denyWrite: string[];
  /** `Read(…)`/`Edit(…)` deny rules, resolved for each command: files created since start-up are denied too. */
  denyRules?: DenyPathRules;
  allowNetwork: string[];
  denyNetwork: string[];
  allowUnixSockets: string[];
  /** Composition root only (tests serving on 127.0.0.1): granted hosts may resolve to private addresses. */
  allowPrivateNetwork?: boolean;
  /** `[sandbox.network] allow_loopback` (user config only): granted hosts may be loopback addresses. */
  allowLoopback?: boolean;
  /**
   * Connections go through the filtering proxy even when no host is granted, so that each refused one is known by
   * its host (an MCP server: the user is told which host to grant). Grants nothing.
   */
  observeNetwork?: boolean;
  /** `[sandbox]` limits; unset ones take the sandbox's defaults. */
  limits?: ResourceLimits;
}
