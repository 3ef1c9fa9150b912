// Builds the SDK transport for one server: stdio through the OS sandbox, Streamable HTTP or SSE through the network policy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { prepareCommand, type ProcessGrants, type SandboxMode, type SandboxViolation } from '../sandbox/index.ts';
import { policyFetchFor, serverGrant } from './policy-fetch.ts';
import type { HttpServerConfig, StdioServerConfig } from './server-config.ts';

/** How stdio servers are started; the composition root may pass a different sandbox mode or a test's launcher. */
export interface LaunchOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  mode: SandboxMode;
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
}

/** Default for a stdio server: read everything but the deny list, write only its own temp folder, no network. */
export function serverGrants(server: StdioServerConfig, tempDir: string): ProcessGrants {
  return {
    allowWrite: [tempDir, ...server.sandbox.allowWrite],
    denyRead: [],
    denyWrite: [],
    allowNetwork: server.sandbox.networkAllow,
    denyNetwork: [],
    allowUnixSockets: [],
  };
}

const STDERR_TAIL = 4000;

export async function launchStdio(server: StdioServerConfig, o: LaunchOptions): Promise<StdioLaunch> {
  const tempDir = mkdtempSync(join(tmpdir(), `moat-mcp-${server.name}-`));
  const cwd = server.cwd ?? o.cwd;
  const env = { ...o.env, ...server.env, TMPDIR: tempDir };
  const grants = serverGrants(server, tempDir);
  if (o.allowPrivateNetwork === true) grants.allowPrivateNetwork = true;
  let prepared;
  try {
    prepared = await prepareCommand([server.command, ...server.args], { cwd, env, grants, mode: server.sandbox.enabled ? o.mode : 'off' });
  } catch (e) {
    rmSync(tempDir, { recursive: true, force: true });
    throw e;
  }
  const [command, ...args] = prepared.argv as [string, ...string[]];
  const transport = new StdioClientTransport({ command, args, env: prepared.env, cwd, stderr: 'pipe' });
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  return {
    transport,
    sandboxed: prepared.sandboxed,
    unsandboxedReason: prepared.sandboxed ? undefined : (prepared.unavailableReason ?? (server.sandbox.enabled ? undefined : 'sandbox = false in the user config')),
    stderrTail: () => tail.trim(),
    // The temp folder goes at once, synchronously: moat may exit before the sandbox's own release settles.
    finish: () => {
      rmSync(tempDir, { recursive: true, force: true });
      return prepared.finish();
    },
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
export function httpTransport(server: HttpServerConfig, o: HttpOptions, kind: 'http' | 'sse' = server.transport): Transport {
  const url = new URL(server.url);
  const fetch = policyFetchFor(serverGrant(server.url, o.authHosts));
  const requestInit = { headers: httpHeaders(server, o.env) };
  const auth = o.authProvider === undefined ? {} : { authProvider: o.authProvider };
  if (kind === 'sse') return new SSEClientTransport(url, { requestInit, fetch, ...auth });
  return new StreamableHTTPClientTransport(url, { requestInit, fetch, ...auth });
}
