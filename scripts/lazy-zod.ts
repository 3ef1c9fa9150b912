/**
 * Build-time change: zod (140 KB) loads with the first schema moat builds,
 * not with the modules that define schemas. moat's schemas are built on
 * first use (util's once), so a `-p` run with no config file parses nothing
 * with zod before its first request, yet evaluating zod's modules cost ~2 ms
 * of its main thread then (CPU profile, 15 runs). In the build, moat's own
 * `import { z } from 'zod'` gets a stand-in whose first property read
 * requires zod (a chunk of its own, loaded synchronously) and applies
 * src/cli/zod-setup.ts's setting first; zod-setup.ts itself becomes empty,
 * since calling z.config there would load zod at once. Packages that import
 * zod (the MCP SDK) get it as usual, the same module. Under `bun run` and
 * `bun test` nothing changes.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const SRC = join(import.meta.dir, '..', 'src');

/**
 * The members of `z` moat's code uses at run time (`z.string`, `z.ZodType`,
 * …; read after the types are stripped, so `z.infer` and `z.core` in types do
 * not count). The module required on first use reads exactly these from zod,
 * so the bundler still leaves out what moat never uses (the other locales,
 * zod/mini): a namespace read whole would keep all of zod, 590 KB instead of 140.
 */
function usedMembers(): string[] {
  const names = new Set<string>(['config']);
  const strip = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) };
  for (const file of new Bun.Glob('**/*.{ts,tsx}').scanSync(SRC)) {
    const js = strip[file.endsWith('.tsx') ? 'tsx' : 'ts'].transformSync(readFileSync(join(SRC, file), 'utf8'));
    for (const m of js.matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) names.add(m[1] ?? '');
  }
  return [...names].sort();
}

/** The module required on first use: zod set up as src/cli/zod-setup.ts sets it up under bun run, and the members moat names. */
function loaded(zodEntry: string, members: readonly string[]): string {
  return [
    `import { z } from ${JSON.stringify(zodEntry)};`,
    '// Parse without compiling parsers (src/cli/zod-setup.ts says why), before anything uses zod.',
    'z.config({ jitless: true });',
    `export const members = { ${members.map((n) => `${JSON.stringify(n)}: z.${n}`).join(', ')} };`,
  ].join('\n');
}

/** `z`'s stand-in: every read, call and `instanceof` reaches the real member, required on the first; a member the build did not list fails loudly. */
const STAND_IN = [
  'let real;',
  "const load = () => (real ??= require('moat-lazy-zod:loaded').members);",
  'export const z = new Proxy({}, {',
  '  get: (_, key) => { const m = load(); if (!(key in m)) throw new Error(`zod member ${String(key)} is not in this build (scripts/lazy-zod.ts lists the members src/ names)`); return m[key]; },',
  '  has: (_, key) => key in load(),',
  '});',
].join('\n');

export const lazyZodPlugin: Bun.BunPlugin = {
  name: 'moat-lazy-zod',
  setup(b) {
    const zodEntry = Bun.resolveSync('zod', dirname(import.meta.dir));
    b.onResolve({ filter: /^zod$/ }, (a) => (/[\\/]src[\\/]/.test(a.importer) && !/[\\/]node_modules[\\/]/.test(a.importer) ? { path: 'stand-in', namespace: 'moat-lazy-zod' } : undefined));
    b.onResolve({ filter: /^moat-lazy-zod:loaded$/ }, () => ({ path: 'loaded', namespace: 'moat-lazy-zod' }));
    b.onLoad({ filter: /^stand-in$/, namespace: 'moat-lazy-zod' }, () => ({ loader: 'js', contents: STAND_IN }));
    b.onLoad({ filter: /^loaded$/, namespace: 'moat-lazy-zod' }, () => ({ loader: 'js', contents: loaded(zodEntry, usedMembers()) }));
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]zod-setup\.ts$/ }, () => ({ loader: 'js', contents: '// zod-setup.ts: applied where zod loads (scripts/lazy-zod.ts).\nexport {};\n' }));
  },
};
