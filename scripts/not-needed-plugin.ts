/** The build's stand-in for node-forge, which only the sandbox runtime's TLS interception (never turned on) uses. */
/**
 * Dependencies of dependencies that moat never calls, left out. The sandbox
 * runtime's HTTP proxy imports its TLS interception (mitm-ca.js, mitm-leaf.js),
 * which needs node-forge (1.1 MB with its bytecode) and runs only when the
 * proxy is given a `mitmCA`; src/sandbox/os/network-bridge.ts never gives one.
 * Those modules still load (the proxy imports a constant from one): node-forge
 * becomes a stand-in whose every property is itself and whose every call
 * throws, naming what is missing.
 */
export const notNeeded: Bun.BunPlugin = {
  name: 'moat-not-needed',
  setup(b) {
    b.onResolve({ filter: /^node-forge$/ }, (a) =>
      /[\\/]@anthropic-ai[\\/]sandbox-runtime[\\/]dist[\\/]sandbox[\\/]mitm-(ca|leaf)\.js$/.test(a.importer) ? { path: 'node-forge', namespace: 'moat-absent' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'moat-absent' }, (a) => ({
      loader: 'js',
      contents: [
        `const missing = () => { throw new Error(${JSON.stringify(`${a.path} is not in this build of moat (only the sandbox runtime's TLS interception uses it, and moat does not turn that on)`)}); };`,
        'const absent = new Proxy(missing, { get: (_t, key) => (key === Symbol.toPrimitive ? undefined : absent), apply: missing, construct: missing });',
        'export default absent;',
      ].join('\n'),
    }));
  },
};
