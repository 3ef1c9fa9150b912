/**
 * The Anthropic default must not pay for the other vendors' SDKs, and nothing
 * pays for Anthropic's before its first request (the TUI's first frame does
 * not wait for it): walking the static imports from the entry point (the
 * bundler evaluates a module reached only through `import()` when that import
 * runs) reaches none of them, and each is reached through exactly the adapter
 * that needs it.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const SRC = resolve(import.meta.dir, '../../src');
const LAZY_PACKAGES = ['@anthropic-ai/sdk', 'openai', '@google/genai', '@anthropic-ai/bedrock-sdk', '@anthropic-ai/vertex-sdk'];

/** Static imports (including `import type`, which carries no code, left out) of one file. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(re)) if (m[2] === undefined && m[3] !== undefined) out.push(m[3]);
  return out;
}

function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every package reachable by static imports from `entry`. */
function reachablePackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (!spec.startsWith('.')) {
        packages.add(packageOf(spec));
        continue;
      }
      const target = resolve(dirname(file), spec);
      if (existsSync(target) && /\.(ts|tsx)$/.test(target)) stack.push(target);
    }
  }
  return packages;
}

test('the CLI reaches no vendor SDK without an import() that only a request to that vendor runs', () => {
  // cli/index.ts imports each command on first use; the root command (-p, the TUI) is the one that runs models.
  for (const entry of ['cli/index.ts', 'cli/root-command.ts']) {
    const packages = reachablePackages(resolve(SRC, entry));
    for (const p of LAZY_PACKAGES) expect(packages.has(p)).toBe(false);
  }
  expect(reachablePackages(resolve(SRC, 'cli/root-command.ts')).has('zod')).toBe(true);
});

test('each adapter reaches its own SDK', () => {
  expect(reachablePackages(resolve(SRC, 'providers/anthropic/index.ts')).has('@anthropic-ai/sdk')).toBe(true);
  expect(reachablePackages(resolve(SRC, 'providers/openai-chat/index.ts')).has('openai')).toBe(true);
  expect(reachablePackages(resolve(SRC, 'providers/openai-responses/index.ts')).has('openai')).toBe(true);
  expect(reachablePackages(resolve(SRC, 'providers/gemini/index.ts')).has('@google/genai')).toBe(true);
  expect(reachablePackages(resolve(SRC, 'providers/anthropic/bedrock.ts')).has('@anthropic-ai/bedrock-sdk')).toBe(true);
  expect(reachablePackages(resolve(SRC, 'providers/anthropic/vertex.ts')).has('@anthropic-ai/vertex-sdk')).toBe(true);
});
