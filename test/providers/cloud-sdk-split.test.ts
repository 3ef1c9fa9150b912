/**
 * The build's split of @anthropic-ai/sdk's resource classes
 * (scripts/cloud-sdk-split.ts): it applies to the installed SDKs, a bundle of
 * the three Anthropic adapters built with it keeps the resource classes out
 * of what the default adapter loads (and one without it does not), and every
 * error class stays one. test/e2e/cloud-providers.test.ts runs the Bedrock and
 * Vertex adapters in the compiled binary.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cloudSdkSource, cloudSdkSplitPlugin, copiedSource } from '../../scripts/cloud-sdk-split.ts';
import { tempDir } from '../support/temp.ts';

const MODULES = join(import.meta.dir, '../../node_modules/@anthropic-ai');
const CLIENTS = ['bedrock-sdk/client.mjs', 'bedrock-sdk/mantle-client.mjs', 'vertex-sdk/client.mjs'].map((f) => join(MODULES, f));
const SDK = dirname(dirname(Bun.resolveSync('@anthropic-ai/sdk/resources/index', join(MODULES, 'bedrock-sdk'))));
const transpiler = new Bun.Transpiler({ loader: 'js' });

describe('the rewrite applies to the installed SDKs', () => {
  test("the Bedrock and Vertex clients import the resources' copy, and nothing else of the SDK changes", () => {
    for (const file of CLIENTS) {
      const source = readFileSync(file, 'utf8');
      const out = cloudSdkSource(file, source);
      expect(out).toContain(`import * as Resources from 'moat-cloud-sdk:${join(SDK, 'resources', 'index.mjs')}';`);
      expect(out).toContain("from '@anthropic-ai/sdk/client'");
      expect(out.split('moat-cloud-sdk:').length).toBe(2);
      expect(() => cloudSdkSource(file, source.replace("'@anthropic-ai/sdk/resources/index'", "'@anthropic-ai/sdk/resources/messages'"))).toThrow(/changed/);
    }
  });

  test('a copy imports copies inside resources/ and lib/, the normal modules elsewhere, and its error classes from the normal module', () => {
    const file = join(SDK, 'resources', 'messages', 'messages.mjs');
    const out = copiedSource(file, readFileSync(file, 'utf8'));
    const imports = transpiler.scan(out).imports.map((i) => i.path);
    expect(imports).toContain(`moat-cloud-sdk:${join(SDK, 'lib', 'MessageStream.mjs')}`);
    expect(imports).toContain(join(SDK, 'core', 'error.mjs'));
    expect(imports).toContain(file);
    expect(imports.filter((p) => p.startsWith('.'))).toEqual([]);
    expect(out).toContain('var ThreadNotFoundError$moatCopy = ');
    expect(transpiler.scan(out).exports).toContain('ThreadNotFoundError');
  });

  test('every module under resources/ and lib/ copies; an error class declared another way stops the build', () => {
    const files = [...new Bun.Glob('{resources,lib}/**/*.mjs').scanSync(SDK)];
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) copiedSource(join(SDK, f), readFileSync(join(SDK, f), 'utf8'));
    expect(() => copiedSource(join(SDK, 'lib', 'x.mjs'), 'const NewError = class extends Error {};\nexport { NewError };\n')).toThrow(/NewError/);
  });
});

/** The chunks `entry` loads before it runs, itself included (static imports, followed). */
function closure(dir: string, entry: string): string {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of transpiler.scan(readFileSync(join(dir, file), 'utf8')).imports) if (i.kind === 'import-statement' && i.path.startsWith('./')) visit(i.path.slice(2));
  };
  visit(entry);
  return [...seen].map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
}

async function bundle(plugins: Bun.BunPlugin[]) {
  const outdir = tempDir('cloud-split-');
  const adapters = join(import.meta.dir, '../../src/providers/anthropic');
  const result = await Bun.build({
    entrypoints: ['index.ts', 'bedrock.ts', 'vertex.ts'].map((f) => join(adapters, f)),
    outdir,
    target: 'bun',
    format: 'esm',
    splitting: true,
    plugins,
  });
  expect(result.success).toBe(true);
  const all = readdirSync(outdir).map((f) => readFileSync(join(outdir, f), 'utf8')).join('\n');
  const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
  return { outdir, all, count, resourcesOf: (entry: string) => count(closure(outdir, entry), /\bextends APIResource\b/g) };
}

test("bundled with the plugin, the Anthropic adapter loads none of the SDK's resource classes, Bedrock and Vertex all they build; each error class is one", async () => {
  const split = await bundle([cloudSdkSplitPlugin]);
  expect(split.resourcesOf('index.js')).toBe(0);
  expect(split.resourcesOf('bedrock.js')).toBeGreaterThan(50);
  expect(split.resourcesOf('vertex.js')).toBeGreaterThan(50);
  for (const name of ['AnthropicError', 'APIError', 'AuthenticationError', 'ThreadNotFoundError', 'ToolError', 'BaseAnthropic']) {
    expect(split.count(split.all, new RegExp(`\\bclass ${name}\\b`, 'g'))).toBe(1);
  }
  // Without it, the resource classes Bedrock and Vertex keep alive are in the chunk the Anthropic adapter loads.
  const plain = await bundle([]);
  expect(plain.resourcesOf('index.js')).toBeGreaterThan(50);
}, 60_000);
