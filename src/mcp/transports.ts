// Builds the SDK transport for one server: stdio through the OS sandbox, Streamable HTTP or SSE through the network policy.
import type { SandboxMode, SandboxPolicy } from '../contracts/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DEFAULT_SCRUB_ENV, prepareSandboxed, type SandboxViolation } from '../sandbox/index.ts';
import { policyFetchFor, serverGrant } from './policy-fetch.ts';
import type { McpSdk } from './sdk.ts';
import type { HttpServerConfig, StdioServerConfig } from './server-config.ts';
import { atExit, nodeOs } from '../util/index.ts';

/** The user's `[sandbox]` settings (and deny rules) as they apply to every stdio server, on top of its own grants. */
export interface ServerSandboxSettings {
  /** `required`: a server that cannot be sandboxed does not start (nor one with `sandbox = false`); `off`: none is sandboxed. */
  mode: SandboxMode;
  denyRead: readonly string[];
  denyWrite: readonly string[];
  denyNetwork: readonly string[];
  /** Patterns removed from the environment a server inherits; its own `env` is passed as configured. */
  scrubEnv: readonly string[];
}

/** What a config without `[sandbox]` means (tests, and the conformance adapter). */
export const DEFAULT_SERVER_SANDBOX: ServerSandboxSettings = { mode: 'auto', denyRead: [], denyWrite: [], denyNetwork: [], scrubEnv: DEFAULT_SCRUB_ENV };

/** How stdio servers are started. */
export interface LaunchOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  sandbox: ServerSandboxSettings;
  /** Loopback/private hosts in a server's network_allow may be reached (the composition root sets it for tests only). */
  allowPrivateNetwork?: boolean;
}

/** A running stdio server's transport plus what its sandbox needs after exit. */
export interface StdioLaunch {
  transport: StdioClientTransport;
  sandboxed: boolean;
  /** Why it is not sandboxed (one line), when it could not be. */
  unsandboxedReason: string | undefined;
  /** Last lines the server wrote to stderr: its own account of a failure. */
  stderrTail(): string;
  /** After the process ended: what the sandbox refused, and its temp folder removed. */
  finish(): Promise<SandboxViolation[]>;
  /** What the sandbox has refused so far, while the server runs. */
  refusedSoFar(): SandboxViolation[];
}

/**
 * A stdio server's policy: read everything but the deny lists, write only its
 * own temp folder (given to the sandbox in place of the system one) and its
 * `allow_write` folders, reach only its `network_allow` hosts — the
 * workspace-write level of a policy whose folders and hosts are the server's.
 */
export function serverPolicy(server: StdioServerConfig, settings: ServerSandboxSettings, mode: SandboxMode = settings.mode): SandboxPolicy {
  return {
    mode,
    active: mode !== 'off',
    scrubEnv: [...settings.scrubEnv],
    allowWrite: [...server.sandbox.allowWrite],
    denyRead: [...settings.denyRead],
    denyWrite: [...settings.denyWrite],
    allowNetwork: [...server.sandbox.networkAllow],
    denyNetwork: [...settings.denyNetwork],
    allowUnixSockets: [],
    ...(server.sandbox.allowLoopback === true ? { allowLoopback: true } : {}),
    ...(fetchesAtStart(server) ? { observeNetwork: true } : {}),
  };
}

/** Package runners: they fetch the server's package when it starts, from a registry the user has to grant. */
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'uvx', 'pipx', 'pnpx', 'pnpm', 'yarn', 'deno']);

/**
 * Whether a server's connections go through the filtering proxy even with no
 * host granted, so that a refused one is named (the registry to grant): for
 * a package runner, which needs the network at once. Other servers without
 * hosts keep a namespace with no network at all: the proxy costs a server's
 * start about 55 ms (the first in a process ~135 ms more, loading it).
 */
function fetchesAtStart(server: StdioServerConfig): boolean {
  const name = server.command.split(/[\\/]/).at(-1) ?? '';
  return PACKAGE_RUNNERS.has(name.replace(/\.(cmd|exe)$/i, ''));
}

/** The sandbox mode one server runs under; throws when the user's settings forbid starting it. */
function modeFor(server: StdioServerConfig, settings: ServerSandboxSettings): SandboxMode {
  if (server.sandbox.enabled) return settings.mode;
  if (settings.mode === 'required') throw new Error('sandbox = false for this server, but [sandbox] mode = "required" starts nothing outside the OS sandbox');
  return 'off';
}

function unsandboxedReason(server: StdioServerConfig, mode: SandboxMode, unavailable: string | undefined): string | undefined {
  if (!server.sandbox.enabled) return 'sandbox = false in the user config';
  if (mode === 'off') return '[sandbox] mode = "off"';
  return unavailable;
}

const STDERR_TAIL = 4000;

export async function launchStdio(sdk: McpSdk, server: StdioServerConfig, o: LaunchOptions): Promise<StdioLaunch> {
  const mode = modeFor(server, o.sandbox);
  // The name may hold dots, spaces or a slash: only the safe characters go into a path.
  const tempDir = mkdtempSync(join(nodeOs().tmpdir(), `moat-mcp-${process.pid}-${server.name.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
  // Removed by finish(), or when moat ends first: a short -p run that ends while the server is still starting, or a signal.
  const dropHook = atExit(() => rmSync(tempDir, { recursive: true, force: true }));
  const removeTemp = (): void => {
    dropHook();
    rmSync(tempDir, { recursive: true, force: true });
  };
  const cwd = server.cwd ?? o.cwd;
  const policy = serverPolicy(server, o.sandbox, mode);
  if (o.allowPrivateNetwork === true) policy.allowPrivateNetwork = true;
  let prepared;
  try {
    // Only the inherited environment is scrubbed: the server's own env (a GITHUB_PERSONAL_ACCESS_TOKEN) is what it needs to work.
    // The SDK's transport spawns it: it takes the prepared command line (the same preparation as runSandboxed's).
    prepared = await prepareSandboxed([server.command, ...server.args], policy, 'workspace-write', { cwd, env: o.env, roots: [], tempDir });
  } catch (e) {
    removeTemp();
    throw e;
  }
  const [command, ...args] = prepared.argv as [string, ...string[]];
  const env = { ...prepared.env, ...server.env, TMPDIR: tempDir };
  const transport = new sdk.StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  return {
    transport,
    sandboxed: prepared.sandboxed,
    unsandboxedReason: prepared.sandboxed ? undefined : unsandboxedReason(server, mode, prepared.unavailableReason),
    stderrTail: () => tail.trim(),
    // The temp folder goes at once, synchronously: moat may exit before the sandbox's own release settles.
    finish: () => {
      removeTemp();
      return prepared.finish();
    },
    refusedSoFar: () => prepared.refusedSoFar?.() ?? [],
  };
}

export interface HttpOptions {
  env: Readonly<Record<string, string | undefined>>;
  authProvider?: OAuthClientProvider;
  /** Hosts besides the server's that the auth provider needs (token refresh). */
  authHosts?: readonly string[];
}

function httpHeaders(server: HttpServerConfig, env: HttpOptions['env']): Record<string, string> {
  const headers = { ...server.headers };
  if (server.bearerTokenEnvVar !== undefined) {
    const token = env[server.bearerTokenEnvVar];
    if (token === undefined || token === '') throw new Error(`bearer_token_env_var: ${server.bearerTokenEnvVar} is not set`);
    headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}

/** Streamable HTTP (or SSE for `type = "sse"`); the caller falls back to SSE when Streamable HTTP is refused. */
export function httpTransport(sdk: McpSdk, server: HttpServerConfig, o: HttpOptions, kind: 'http' | 'sse' = server.transport): Transport {
  const url = new URL(server.url);
  const fetch = policyFetchFor(serverGrant(server.url, o.authHosts));
  const requestInit = { headers: httpHeaders(server, o.env) };
  const auth = o.authProvider === undefined ? {} : { authProvider: o.authProvider };
  if (kind === 'sse') return new sdk.SSEClientTransport(url, { requestInit, fetch, ...auth });
  return new sdk.StreamableHTTPClientTransport(url, { requestInit, fetch, ...auth });
}
