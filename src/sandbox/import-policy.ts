/**
 * The interfaces a component may import: what moat's host implements.
 * Anything else — `wasi:sockets/*` above all, but also any custom interface
 * the host would have to invent — is refused when the component is loaded,
 * naming the interface, instead of failing later at instantiation.
 */

export const ALLOWED_INTERFACES: readonly string[] = [
  'wasi:cli/environment',
  'wasi:cli/exit',
  'wasi:cli/stdin',
  'wasi:cli/stdout',
  'wasi:cli/stderr',
  'wasi:cli/terminal-input',
  'wasi:cli/terminal-output',
  'wasi:cli/terminal-stdin',
  'wasi:cli/terminal-stdout',
  'wasi:cli/terminal-stderr',
  'wasi:clocks/monotonic-clock',
  'wasi:clocks/wall-clock',
  'wasi:filesystem/types',
  'wasi:filesystem/preopens',
  'wasi:io/error',
  'wasi:io/poll',
  'wasi:io/streams',
  'wasi:random/random',
  'wasi:random/insecure',
  'wasi:random/insecure-seed',
  // Requests go through the network policy; without a network grant the allowlist is empty (run.ts).
  'wasi:http/types',
  'wasi:http/outgoing-handler',
];

/** The interface name without its version: `wasi:cli/stdout@0.2.3` → `wasi:cli/stdout`. */
export function interfaceName(spec: string): string {
  const at = spec.indexOf('@');
  return at < 0 ? spec : spec.slice(0, at);
}

/** True when `spec` is a 0.2.x WASI interface version, or carries no version. */
function versionOk(spec: string): boolean {
  const at = spec.indexOf('@');
  return at < 0 || spec.slice(at + 1).startsWith('0.2.');
}

/** One line per import the host will not provide, each naming the interface and why. Empty: all fine. */
export function checkImports(imports: readonly string[]): string[] {
  const problems: string[] = [];
  for (const spec of imports) {
    const name = interfaceName(spec);
    if (name.startsWith('wasi:sockets/')) {
      problems.push(`imports ${spec}: raw sockets are not provided; network access is only through wasi:http/outgoing-handler under a network grant`);
    } else if (!ALLOWED_INTERFACES.includes(name)) {
      problems.push(`imports ${spec}, which moat's WASI host does not provide`);
    } else if (!versionOk(spec)) {
      problems.push(`imports ${spec}: only WASI 0.2 interfaces are supported`);
    }
  }
  return problems;
}
