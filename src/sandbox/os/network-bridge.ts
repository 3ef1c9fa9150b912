/**
 * Network for sandboxed processes that were granted hosts. The process has no
 * network of its own (a fresh namespace); the sandbox runtime's HTTP and SOCKS
 * proxies listen on Unix sockets bound into it, and two socat relays inside
 * offer them on 127.0.0.1:3128 and :1080 with the usual proxy variables set.
 * Every connection is checked by moat's one network policy: the host against
 * the command's allowlist (host-pattern.ts, the matcher web_fetch and the WASM
 * tools use) and each resolved address against the private/loopback/metadata
 * block (ip-address.ts), an IP literal as it is given, and the proxy connects
 * only to the addresses checked.
 * Started on the first command that needs it, never at start-up.
 */
import { randomBytes } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, isIP, type LookupFunction, type Server } from 'node:net';
import { join } from 'node:path';
import { bareHost } from '../host-pattern.ts';
import { checkAddress } from '../network-policy.ts';
import type { NetworkGrant } from '../types.ts';
import { connectionAllowed } from './network-match.ts';
import { httpProxy, sandboxUtils, socksProxy } from './runtime-internals.ts';
import type { SandboxViolation } from './types.ts';
import { nodeOs } from '../../util/index.ts';

const [{ createHttpProxyServer }, { decodeSandboxedCommand, encodeSandboxedCommand, generateProxyEnvVars }, { createSocksProxyServer }] = await Promise.all([httpProxy(), sandboxUtils(), socksProxy()]);

const HTTP_PORT = 3128;
const SOCKS_PORT = 1080;

/** Which blocked addresses a command's granted hosts may still be: none by default. */
export interface AddressGrant {
  allowPrivate: boolean;
  allowLoopback: boolean;
}

interface CommandNetwork {
  allow: readonly string[];
  deny: readonly string[];
  addresses: AddressGrant;
  refused: Map<string, SandboxViolation>;
}

export interface NetworkBridge {
  /** The one socket bound into the sandbox (HTTP and SOCKS each get their own path under this folder). */
  socketPath: string;
  env(id: string): Record<string, string>;
  /** Put the relays in front of `argv` (the relays need Unix sockets, so they start before the seccomp filter does). */
  wrap(argv: readonly string[]): string[];
  register(id: string, allow: readonly string[], deny: readonly string[], addresses: AddressGrant): void;
  /** Forget command `id` and return what its connections were refused. */
  release(id: string): SandboxViolation[];
  /** What command `id`'s connections were refused so far (it still runs). */
  refused(id: string): SandboxViolation[];
  /** Stop the proxies and remove their sockets; the next networkBridge() starts a new one. */
  close(): void;
}

const commands = new Map<string, CommandNetwork>();

function commandOf(encoded: string | undefined): CommandNetwork | undefined {
  if (encoded === undefined) return undefined;
  try {
    return commands.get(decodeSandboxedCommand(encoded));
  } catch {
    return undefined;
  }
}

function refuse(cmd: CommandNetwork | undefined, target: string, message: string): void {
  if (cmd !== undefined && !cmd.refused.has(target)) cmd.refused.set(target, { kind: 'network', target, message });
}

function grantOf(cmd: CommandNetwork | undefined): NetworkGrant {
  return { allowHosts: [], allowPrivate: cmd?.addresses.allowPrivate === true, allowLoopback: cmd?.addresses.allowLoopback === true };
}

function filter(port: number, host: string, encoded: string | undefined): boolean {
  const cmd = commandOf(encoded);
  if (cmd === undefined) return false;
  const verdict = connectionAllowed(host, port, cmd.allow, cmd.deny);
  if (!verdict.ok) {
    refuse(cmd, `${host}:${port}`, `connection to ${host}:${port} refused: ${verdict.reason}`);
    return false;
  }
  // The proxies dial an IP literal without a name lookup, so checkedLookup never sees it: the address is checked here.
  const literal = bareHost(host);
  if (isIP(literal) === 0) return true;
  const refusal = checkAddress(literal, grantOf(cmd));
  if (refusal === undefined) return true;
  refuse(cmd, `${host}:${port}`, `connection to ${host}:${port} refused: ${refusal.reason.replace(/^.*? is /, 'it is ')}`);
  return false;
}

/** The proxies dial only addresses that pass the same check web_fetch applies, so a name that resolves inside cannot get out. */
function checkedLookup(port: number, encoded: string | undefined): LookupFunction {
  const cmd = commandOf(encoded);
  return ((hostname: string, options: { all?: boolean }, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err !== null) return callback(err, []);
      const grant = grantOf(cmd);
      for (const a of addresses) {
        const refusal = checkAddress(a.address, grant);
        if (refusal !== undefined) {
          const shown = isIP(hostname) === 0 ? `${hostname} (${a.address})` : hostname;
          refuse(cmd, `${hostname}:${port}`, `connection to ${shown}:${port} refused: ${refusal.reason.replace(/^.*? is /, 'it is ')}`);
          const e: NodeJS.ErrnoException = new Error(`${hostname}: ${refusal.reason}`);
          e.code = 'EACCES';
          return callback(e, []);
        }
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  }) as LookupFunction;
}

let started: Promise<NetworkBridge> | undefined;

async function listen(server: Server, path: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  server.unref();
}

async function start(): Promise<NetworkBridge> {
  const dir = mkdtempSync(join(nodeOs().tmpdir(), 'moat-net-'));
  const httpPath = join(dir, 'http.sock');
  const socksPath = join(dir, 'socks.sock');
  const token = randomBytes(16).toString('hex');
  const http = createHttpProxyServer({ filter: (port, host, _s, encoded) => filter(port, host, encoded), lookupFor: checkedLookup, proxyAuthToken: token });
  const socks = createSocksProxyServer({ filter: (port, host, encoded) => filter(port, host, encoded), lookupFor: checkedLookup, proxyAuthToken: token });
  const socksServer = createServer((s) => socks.handleConnection(s));
  await listen(http, httpPath);
  await listen(socksServer, socksPath);
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const relay = (port: number, path: string): string =>
    `socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${path} >/dev/null 2>&1 &`;
  // Wait (at most ~0.5 s) until both relays listen: the namespace is new, so its TCP table holds only theirs.
  const script = [
    relay(HTTP_PORT, httpPath),
    relay(SOCKS_PORT, socksPath),
    'i=0',
    `while [ "$i" -lt 500 ]; do n=0; while read -r _ local _ state _; do case "$local:$state" in *:0C38:0A|*:0438:0A) n=$((n+1));; esac; done < /proc/net/tcp; [ "$n" -ge 2 ] && break; i=$((i+1)); sleep 0.001; done`,
    'exec "$@"',
  ].join('\n');
  return {
    socketPath: dir,
    env(id) {
      const out: Record<string, string> = {};
      for (const kv of generateProxyEnvVars(HTTP_PORT, SOCKS_PORT, undefined, token, true, encodeSandboxedCommand(id))) {
        const eq = kv.indexOf('=');
        out[kv.slice(0, eq)] = kv.slice(eq + 1);
      }
      // Nothing listens on loopback inside but the relays: every destination goes through the proxy and its checks.
      out.NO_PROXY = '';
      out.no_proxy = '';
      return out;
    },
    wrap: (argv) => ['/bin/sh', '-c', script, 'moat-net', ...argv],
    register(id, allow, deny, addresses) {
      commands.set(id, { allow, deny, addresses, refused: new Map() });
    },
    release(id) {
      const cmd = commands.get(id);
      commands.delete(id);
      return cmd === undefined ? [] : [...cmd.refused.values()];
    },
    refused: (id) => [...(commands.get(id)?.refused.values() ?? [])],
    close() {
      http.close();
      socksServer.close();
      remove();
      process.off('exit', remove);
      started = undefined;
    },
  };
}

/** The running bridge, started on first use. */
export function networkBridge(): Promise<NetworkBridge> {
  started ??= start();
  return started;
}

/** The same proxies and checks on two loopback ports, for a backend without a network namespace (Seatbelt). */
export interface LoopbackProxies {
  httpPort: number;
  socksPort: number;
  /** The proxy variables for command `id` (its key rides in the proxy user name, with the token no other process has). */
  env(id: string): Record<string, string>;
  register(id: string, allow: readonly string[], deny: readonly string[], addresses: AddressGrant): void;
  release(id: string): SandboxViolation[];
  refused(id: string): SandboxViolation[];
  close(): void;
}

let loopback: Promise<LoopbackProxies> | undefined;

async function listenLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the sandbox proxy has no TCP port');
  return address.port;
}

async function startLoopback(): Promise<LoopbackProxies> {
  const token = randomBytes(16).toString('hex');
  const http = createHttpProxyServer({ filter: (port, host, _s, encoded) => filter(port, host, encoded), lookupFor: checkedLookup, proxyAuthToken: token });
  const socks = createSocksProxyServer({ filter: (port, host, encoded) => filter(port, host, encoded), lookupFor: checkedLookup, proxyAuthToken: token });
  const socksServer = createServer((s) => socks.handleConnection(s));
  const httpPort = await listenLoopback(http);
  const socksPort = await listenLoopback(socksServer);
  return {
    httpPort,
    socksPort,
    env(id) {
      const out: Record<string, string> = {};
      for (const kv of generateProxyEnvVars(httpPort, socksPort, undefined, token, true, encodeSandboxedCommand(id))) {
        const eq = kv.indexOf('=');
        out[kv.slice(0, eq)] = kv.slice(eq + 1);
      }
      // The profile lets the process reach these two ports and nothing else: no destination may skip the proxy.
      out.NO_PROXY = '';
      out.no_proxy = '';
      return out;
    },
    register(id, allow, deny, addresses) {
      commands.set(id, { allow, deny, addresses, refused: new Map() });
    },
    release(id) {
      const cmd = commands.get(id);
      commands.delete(id);
      return cmd === undefined ? [] : [...cmd.refused.values()];
    },
    refused: (id) => [...(commands.get(id)?.refused.values() ?? [])],
    close() {
      http.close();
      socksServer.close();
      loopback = undefined;
    },
  };
}

/** The running loopback proxies, started on first use. */
export function loopbackProxies(): Promise<LoopbackProxies> {
  loopback ??= startLoopback();
  return loopback;
}
