/**
 * The contract of the WebAssembly sandbox: what the tools layer (the WASM tool
 * adapter, `moat tool …`) asks of it. The sandbox knows nothing of agents or
 * tools; it runs a WASI 0.2 command component under explicit grants and limits.
 */

/** A folder the component may see, mounted at `guestPath`. */
export interface Preopen {
  hostPath: string;
  /** Where the component sees it, e.g. "/" or "/zoneinfo". */
  guestPath: string;
  readOnly: boolean;
}

export interface Limits {
  /** Instructions budget (metered in the tool's own core module). Default 1e9. */
  fuel: number;
  /** Linear memory cap in bytes. Default 16 MiB. */
  memoryBytes: number;
  /** Wall-clock deadline in ms. Default 5000. */
  timeoutMs: number;
  /** Cap on stdout and on stderr, each, in bytes. Default 1 MiB. */
  maxOutputBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  fuel: 1_000_000_000,
  memoryBytes: 16 * 1024 * 1024,
  timeoutMs: 5000,
  maxOutputBytes: 1024 * 1024,
};

/**
 * The network a component may reach through wasi:http/outgoing-handler.
 * Hosts: `api.example.com`, `*.example.com`, `host:port`, `*://*.github.net`.
 */
export interface NetworkGrant {
  allowHosts: string[];
  /** Loopback, private, link-local and metadata addresses are blocked unless this is set (tests only). */
  allowPrivate?: boolean;
  /** Loopback addresses only (`[sandbox.network] allow_loopback`); metadata and other private addresses stay blocked. */
  allowLoopback?: boolean;
  maxRequestBytes?: number;
  maxResponseBytes?: number;
  timeoutMs?: number;
}

export interface RunRequest {
  /** argv[0] is the program name. */
  args: string[];
  stdin?: Uint8Array;
  /** Exactly the variables the tool declared, with their values. Nothing else is visible. */
  env: Record<string, string>;
  preopens: Preopen[];
  limits: Limits;
  network?: NetworkGrant;
  /**
   * 'in-process' for trusted (bundled) tools: fastest. 'child' runs the call in
   * a child process that is SIGKILLed at the deadline: the hard backstop for
   * untrusted tools (Bun's Worker.terminate cannot stop a busy wasm loop).
   */
  isolation: 'in-process' | 'child';
  signal?: AbortSignal;
}

export type LimitHit = 'fuel' | 'memory' | 'timeout' | 'output';

export interface RunResult {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Set when a limit stopped the run; `message` then says which, e.g. "fuel exhausted after 1,000,000,000 units". */
  limitHit?: LimitHit;
  /** A trap that was not a limit (e.g. unreachable, out-of-bounds). */
  trap?: string;
  message?: string;
  fuelUsed: number;
  peakMemoryBytes: number;
  durationMs: number;
}

/** A component ready to run: transpiled, instrumented, compiled; cached by the sha256 of its bytes. */
export interface LoadedComponent {
  hash: string;
  /** WIT interfaces it imports, e.g. "wasi:filesystem/types@0.2.3". */
  imports: string[];
  /** False when the main core module lacks `cabi_realloc` (old toolchains: memory corruption risk). */
  exportsCabiRealloc: boolean;
  /** True when the transpile came from the on-disk cache. */
  fromCache: boolean;
}
