/**
 * The one door to @anthropic-ai/sandbox-runtime's internal modules (its
 * dist/ files are not a public API and may move in any release; the package
 * is pinned to an exact version in package.json). Each module is a loader, so
 * nothing of the runtime loads before the first sandboxed command needs it
 * (its modules cost ~60 ms and ~25 MB).
 */
export type { LinuxViolationMonitor } from '@anthropic-ai/sandbox-runtime/dist/sandbox/linux-violation-monitor.js';
export type { MacOSSandboxParams } from '@anthropic-ai/sandbox-runtime/dist/sandbox/macos-sandbox-utils.js';

/** Capability options for bubblewrap (CAP_SETFCAP for a root caller using the seccomp loader). */
export const linuxSandboxUtils = () => import('@anthropic-ai/sandbox-runtime/dist/sandbox/linux-sandbox-utils.js');
/** The seccomp loader's write-intent reports, read from one Unix socket. */
export const linuxViolationMonitor = () => import('@anthropic-ai/sandbox-runtime/dist/sandbox/linux-violation-monitor.js');
/** The filtering HTTP proxy. */
export const httpProxy = () => import('@anthropic-ai/sandbox-runtime/dist/sandbox/http-proxy.js');
/** The filtering SOCKS5 proxy. */
export const socksProxy = () => import('@anthropic-ai/sandbox-runtime/dist/sandbox/socks-proxy.js');
/** Proxy variables and the command key carried in the proxy user name and the monitor's socket. */
export const sandboxUtils = () => import('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js');
/** The Seatbelt profile generator and `sandbox-exec` wrapper Claude Code runs on macOS. */
export const macosSandboxUtils = () => import('@anthropic-ai/sandbox-runtime/dist/sandbox/macos-sandbox-utils.js');
