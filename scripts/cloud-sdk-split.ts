/**
 * Build-time split of @anthropic-ai/sdk's resource classes away from the
 * default provider path. The Bedrock and Vertex clients (bedrock-sdk's
 * client.mjs and mantle-client.mjs, vertex-sdk's client.mjs) do
 * `import * as Resources from '@anthropic-ai/sdk/resources/index'` and build
 * `Resources.Messages` and `Resources.Beta` in their constructors. The same
 * resource modules are reachable from moat's Anthropic adapter too (the SDK's
 * client.mjs imports them for the `Anthropic` class, which moat does not use,
 * and core/error-classes.mjs for the error subclasses they declare), and Bun
 * assigns whole modules to chunks: the code Bedrock and Vertex keep alive in
 * them (~89 `extends APIResource` classes: Beta, Messages, Organization,
 * Workspaces, Files, Skills, … and lib/'s streams and tool runners) landed in
 * the chunk all three adapters share, which `-p` loads for its first request.
 *
 * What the Bedrock and Vertex SDKs import from the SDK's resources/ and lib/
 * folders becomes a copy of its own (namespace `moat-cloud-sdk`), and a
 * copy's imports that land in resources/ or lib/ are copies too. Everything
 * else (core/, internal/, tools/, client.mjs with BaseAnthropic, core/error.mjs)
 * is the normal module, one of each, and so is every error class a copy
 * declares: the copy imports it from the normal module (`copiedSource`). The
 * errors the Bedrock and Vertex clients throw are therefore the ones
 * src/providers/anthropic/errors.ts tests with `instanceof APIError` & co.,
 * and `Messages.ThreadNotFoundError` of a Bedrock client is the class the SDK
 * throws for that code. The copies are reachable only from the Bedrock and
 * Vertex adapters, so they go to a chunk of their own.
 *
 * Measured on the compiled binary (its chunks read out of the executable's
 * module graph; `-p`'s first byte at a local server, 100 interleaved runs,
 * median):
 *  - the SDK chunk the default path loads: 539 KB → 181 KB of JavaScript
 *    (`--without-other-sdks`, the floor: 171 KB); everything `-p`'s adapter
 *    loads: 682 KB → 332 KB (floor 319 KB);
 *  - `-p`'s first request: 79.8 → 72.8 ms, and 78.3 → 71.9 ms with the
 *    order of the runs swapped (the floor: 0.7 ms under the split build);
 *  - Bedrock's and Vertex's adapters load 13-14 KB more (1031 → 1044 KB,
 *    929 → 943 KB: mostly the imports and exports between the copies' chunk
 *    and the SDK's), the executable is 33 KB larger.
 *
 * The imports are rewritten in the loaded source (to `moat-cloud-sdk:<path>`
 * for a copy, to the absolute path otherwise) rather than redirected by an
 * onResolve callback on `@anthropic-ai/sdk/…` or on relative specifiers: Bun
 * runs such a callback on every package's imports and then no longer skips
 * the unused re-exports of `"sideEffects": false` packages, which moved 77 KB
 * of zod into the chunk every command loads.
 *
 * The build fails when a Bedrock or Vertex client no longer imports the
 * resources as above (the split would silently stop), or when a copied
 * module exports an error class declared in a way `copiedSource` does not
 * take from the normal module. test/providers/cloud-sdk-split.test.ts checks
 * the rewrite and bundles the three adapters with and without the plugin;
 * test/e2e/cloud-providers.test.ts runs the compiled Bedrock and Vertex
 * adapters against fake servers, HTTP errors included.
 */
import { readFileSync } from 'node:fs';
import { dirname, sep } from 'node:path';

const NAMESPACE = 'moat-cloud-sdk';
const PREFIX = `${NAMESPACE}:`;
/** Bun keys modules by path whatever their namespace (see `coldModules` in scripts/build.ts): a copy's path is the file's own plus this. */
const COPY_SUFFIX = '.moat-cloud-sdk.js';

/** The Bedrock and Vertex SDKs' modules, whose imports into resources/ and lib/ become copies. */
const CLOUD_SDK_MODULE = /[\\/]node_modules[\\/]@anthropic-ai[\\/](bedrock|vertex)-sdk[\\/](?!node_modules[\\/]).*\.mjs$/;
/** The clients that must hold RESOURCES_IMPORT: if one no longer does, the SDKs changed and this plugin may do nothing. */
const CLIENT = /[\\/]@anthropic-ai[\\/](bedrock-sdk[\\/](client|mantle-client)|vertex-sdk[\\/]client)\.mjs$/;
const RESOURCES_IMPORT = "import * as Resources from '@anthropic-ai/sdk/resources/index';";

/** Whether `file` (a resolved path) is copied: under @anthropic-ai/sdk's resources/ or lib/. */
const copied = (file: string): boolean => /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/](resources|lib)[\\/]/.test(file);

const transpiler = new Bun.Transpiler({ loader: 'js' });
/** A string literal in an import or export position: `from "x"`, `import "x"`, `import("x")`. */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'])([^"'\n]+)\2/g;

/**
 * `source` (the module at `file`) with the imports that land in a copied
 * module pointing at the copy, and, when `all`, every other relative import
 * at the absolute path (a copy's own path is not its file's).
 */
export function rewriteImports(file: string, source: string, all: boolean): string {
  const to = new Map<string, string>();
  for (const { path } of transpiler.scan(source).imports) {
    const relative = path.startsWith('./') || path.startsWith('../');
    if (!relative && !/^@anthropic-ai\/sdk(\/|$)/.test(path)) continue;
    const target = Bun.resolveSync(path, dirname(file));
    if (copied(target)) to.set(path, PREFIX + target);
    else if (all && relative) to.set(path, target);
  }
  const out = source.replace(SPECIFIER, (whole, before: string, quote: string, path: string) => {
    const target = to.get(path);
    return target === undefined ? whole : `${before}${quote}${target}${quote}`;
  });
  if (all) {
    const left = transpiler.scan(out).imports.filter((i) => i.path.startsWith('.'));
    if (left.length > 0) throw new Error(`scripts/cloud-sdk-split.ts could not rewrite ${left.map((i) => i.path).join(', ')} in ${file}`);
  }
  return out;
}

/**
 * A copied module's source: imports rewritten, and its error classes (the
 * `export var …Error = (() => { class … })();` the SDK's generator writes,
 * or `export class …Error`) imported from the normal module and exported
 * again, so that each error class exists once; the copy's own declaration is
 * left unused (and dropped). Throws when the module exports an error class
 * declared some other way.
 */
export function copiedSource(file: string, source: string): string {
  const errors: string[] = [];
  const declared = source
    .replace(/^export var ([A-Z][\w$]*Error) = /gm, (_, name: string) => (errors.push(name), `var ${name}$moatCopy = `))
    .replace(/^export class ([A-Z][\w$]*Error)\b/gm, (_, name: string) => (errors.push(name), `class ${name}$moatCopy`));
  const reexported = new Set(
    [...source.matchAll(/\bexport\s*\{([^}]*)\}\s*from\b/g)].flatMap((m) => (m[1] ?? '').split(',').map((s) => s.trim().split(/\s+as\s+/).at(-1) ?? '')),
  );
  const other = transpiler.scan(source).exports.filter((n) => /^[A-Z][\w$]*Error$/.test(n) && !errors.includes(n) && !reexported.has(n));
  if (other.length > 0) {
    throw new Error(`@anthropic-ai/sdk changed: ${file} exports ${other.join(', ')}, declared in a way scripts/cloud-sdk-split.ts does not take from the normal module`);
  }
  const normal = errors.length === 0 ? '' : `import { ${errors.join(', ')} } from ${JSON.stringify(file)};\nexport { ${errors.join(', ')} };\n`;
  return normal + rewriteImports(file, declared, true);
}

/** A Bedrock or Vertex SDK module with its imports into resources/ and lib/ pointing at copies; a client must import the resources as expected. */
export function cloudSdkSource(file: string, source: string): string {
  const out = rewriteImports(file, source, false);
  if (CLIENT.test(file) && (source.split(RESOURCES_IMPORT).length !== 2 || !out.includes(`from '${PREFIX}`))) {
    throw new Error(`@anthropic-ai/${file.split(sep).slice(-2).join('/')} changed: scripts/cloud-sdk-split.ts no longer finds ${RESOURCES_IMPORT}`);
  }
  return out;
}

/** The Bun plugin for scripts/build.ts. */
export const cloudSdkSplitPlugin: Bun.BunPlugin = {
  name: 'moat-cloud-sdk-split',
  setup(b) {
    b.onLoad({ filter: CLOUD_SDK_MODULE }, (a) => ({ loader: 'js', contents: cloudSdkSource(a.path, readFileSync(a.path, 'utf8')) }));
    b.onResolve({ filter: /^moat-cloud-sdk:/ }, (a) => ({ path: a.path.slice(PREFIX.length) + COPY_SUFFIX, namespace: NAMESPACE }));
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (a) => {
      const file = a.path.slice(0, -COPY_SUFFIX.length);
      return { loader: 'js', contents: copiedSource(file, readFileSync(file, 'utf8')) };
    });
  },
};
