// What the OS sandbox refused a stdio server, in the user's terms: the path or host, and the config line that would allow it.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxViolation } from '../sandbox/index.ts';
import type { StdioServerConfig } from './server-config.ts';

/** `[mcp_servers.<name>.sandbox]`, the name quoted when TOML needs it (`"my.server"`). */
export function sandboxTable(name: string): string {
  return `[mcp_servers.${/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name)}.sandbox]`;
}

/** The folder to grant for a refused write: the path itself when it is a folder, else the folder it is in (a bind mount needs something there). */
function writeGrant(target: string): string {
  try {
    if (statSync(target).isDirectory()) return target;
  } catch {
    // Not there (the write would have made it): its folder.
  }
  return dirname(target);
}

/** `host:port` → the network_allow entry: the host alone for the default web ports (a pattern without a port means those). */
function networkGrant(target: string): string {
  const m = /^(.*):(\d+)$/.exec(target);
  if (m === null) return target;
  const [, host = target, port] = m;
  return port === '443' || port === '80' ? host : target;
}

/** A name or address that is this machine: a grant of it needs allow_loopback too. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]' || host === '::1';
}

const list = (items: readonly string[]): string => `[${items.map((i) => JSON.stringify(i)).join(', ')}]`;

/**
 * How to allow what was refused: the key in the user's config (the only file
 * that may grant a server more; it applies to a server from `.mcp.json`,
 * `~/.claude.json` or `--mcp-config` as well), with the server's current
 * grants kept, and the `moat mcp add` flag that writes the same key.
 * Empty when no grant allows it (a limit, or the user's own deny list).
 */
export function howToAllow(config: StdioServerConfig, v: SandboxViolation, userConfig: string): string {
  const table = sandboxTable(config.name);
  if (v.kind === 'write') {
    const path = writeGrant(v.target);
    const all = config.sandbox.allowWrite.includes(path) ? config.sandbox.allowWrite : [...config.sandbox.allowWrite, path];
    return `to allow it, in ${userConfig}: ${table} allow_write = ${list(all)} (moat mcp add … --allow-write ${path})`;
  }
  if (v.kind === 'network') {
    if (/denied by/.test(v.message)) return '';
    const host = networkGrant(v.target);
    const all = config.sandbox.networkAllow.includes(host) ? config.sandbox.networkAllow : [...config.sandbox.networkAllow, host];
    // A loopback address is refused even for a granted host, unless loopback is granted too.
    if (/loopback/.test(v.message) || isLoopback(host.replace(/:\d+$/, ''))) return `to allow it, in ${userConfig}: ${table} network_allow = ${list(all)}, allow_loopback = true (moat mcp add … --allow-network ${host} --allow-loopback)`;
    return `to allow it, in ${userConfig}: ${table} network_allow = ${list(all)} (moat mcp add … --allow-network ${host})`;
  }
  return '';
}

/** One refusal as one line: what was refused, and how to allow it. */
export function refusalLine(config: StdioServerConfig, v: SandboxViolation, userConfig: string): string {
  const how = howToAllow(config, v, userConfig);
  // The proxy's words are about the user's [sandbox.network] list; a server's own list is its network_allow.
  const what = v.message.replace(': not in [sandbox.network] allow', ' (not in its network_allow)');
  return `${what}${how === '' ? '' : `; ${how}`}`;
}
