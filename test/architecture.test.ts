/**
 * Enforces the layer rules of ARCHITECTURE.md: dependencies point one way,
 * and another folder is entered only through its index.ts.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { tempDir } from './support/temp.ts';

const SRC = resolve(import.meta.dir, '../src');

/** Which top-level folders each folder may import from (besides itself). */
const ALLOWED: Record<string, string[]> = {
  cli: ['tui', 'print', 'sdk', 'acp', 'mcp-serve', 'protocol', 'agent', 'providers', 'tools', 'mcp', 'cron', 'checkpoints', 'sandbox', 'skills', 'store', 'config', 'util', 'contracts'],
  tui: ['protocol', 'agent', 'config', 'util', 'contracts'],
  print: ['protocol', 'agent', 'util', 'contracts'],
  // The session protocol: operation and event types and the dispatcher between front ends and the agent.
  protocol: ['agent', 'util', 'contracts'],
  // stream-json input for programs and the Claude Agent SDK: a client of the protocol, writing print's lines.
  sdk: ['protocol', 'print', 'agent', 'util', 'contracts'],
  // Editors (the Agent Client Protocol) and other agents (moat as an MCP server): clients of the protocol, like print.
  acp: ['protocol', 'agent', 'util', 'contracts'],
  'mcp-serve': ['protocol', 'agent', 'util', 'contracts'],
  agent: ['providers', 'tools', 'skills', 'store', 'config', 'util', 'contracts'],
  providers: ['util', 'contracts'],
  tools: ['sandbox', 'util', 'contracts'],
  mcp: ['tools', 'sandbox', 'config', 'util', 'contracts'],
  // Scheduled jobs: the scheduler, its store rows, runs as -p processes, the model's Schedule tool.
  cron: ['tools', 'sandbox', 'store', 'util', 'contracts'],
  sandbox: ['util', 'contracts'],
  skills: ['util', 'contracts'],
  // Checkpoints: the shadow git repository, its rows in the store, rewinding code to them.
  checkpoints: ['store', 'util', 'contracts'],
  store: ['util', 'contracts'],
  config: ['util', 'contracts'],
  // Names and shapes every layer shares (modes, the sandbox policy, zod issue lines): a leaf any folder may import.
  contracts: [],
  util: [],
};

/** `import type` of shared contract types (messages, todo items) is allowed here too: it carries no code. */
const TYPE_ONLY_EXTRA: Record<string, string[]> = {
  tools: ['providers'],
  mcp: ['providers'],
  store: ['providers', 'tools'],
};

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

interface Import {
  spec: string;
  typeOnly: boolean;
  /** `with { type: 'macro' }`: runs while bundling; the bundle keeps its result, not the import. */
  macro: boolean;
}

const valueScanner = new Bun.Transpiler({ loader: 'tsx' });
const allScanner = new Bun.Transpiler({ loader: 'tsx', trimUnusedImports: false });

/**
 * The imports of a file, read by Bun's parser: what survives compilation is a
 * value import; what only appears once `import type` is read as a plain
 * import is type-only (it carries no code).
 */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const values = new Set(valueScanner.scanImports(text).map((i) => i.path));
  const everything = allScanner.scanImports(text.replace(/\bimport\s+type\s+(?=[{*]|[\w$]+\s+from\b)/g, 'import ').replace(/\bexport\s+type\s+(?=[{*])/g, 'export ')).map((i) => i.path);
  const macros = new Set([...text.matchAll(/from\s+['"]([^'"]+)['"]\s+with\s*\{\s*type:\s*['"]macro['"]\s*\}/g)].map((m) => m[1]));
  return [...new Set([...values, ...everything])].map((spec) => ({ spec, typeOnly: !values.has(spec), macro: macros.has(spec) }));
}

/** Packages only some folders may use: the UI library in the front ends, SQLite in the store. */
const PACKAGE_RULES: { test: (spec: string) => boolean; what: string; only: string[] }[] = [
  { test: (s) => s === 'ink' || s.startsWith('ink-') || s === 'react' || s.startsWith('react/'), what: 'ink/react', only: ['tui', 'cli'] },
  { test: (s) => s === 'bun:sqlite', what: 'bun:sqlite', only: ['store'] },
];

function folderOf(root: string, file: string): string | undefined {
  const rel = relative(root, file);
  const first = rel.split('/')[0];
  return rel.includes('/') ? first : undefined; // files at src/ root (main.ts) are the entry
}

function violations(root = SRC): string[] {
  const found: string[] = [];
  for (const file of walk(root)) {
    const from = folderOf(root, file);
    for (const imp of importsOf(file)) {
      if (!imp.spec.startsWith('.')) {
        const rule = PACKAGE_RULES.find((r) => r.test(imp.spec));
        if (rule && !imp.typeOnly && !rule.only.includes(from ?? '')) found.push(`${relative(root, file)} imports ${imp.spec}: only ${rule.only.join('/, ')}/ may use ${rule.what}`);
        continue;
      }
      const target = resolve(dirname(file), imp.spec);
      const rel = relative(root, target);
      if (rel.startsWith('..')) continue; // package.json and the like
      const to = rel.includes('/') ? rel.split('/')[0]! : undefined;
      if (!from || !to || from === to) continue;
      const where = `${relative(root, file)} imports ${imp.spec}`;
      const allowed = ALLOWED[from] ?? [];
      if (!allowed.includes(to) && !(imp.typeOnly && (TYPE_ONLY_EXTRA[from] ?? []).includes(to))) {
        found.push(`${where}: ${from}/ must not depend on ${to}/`);
      }
      // A macro names the module that defines it: nothing is imported at run time (the layer rule above still holds).
      if (!imp.macro && rel !== `${to}/index.ts` && rel !== `${to}/index.tsx`) {
        found.push(`${where}: import another folder only through ${to}/index.ts`);
      }
    }
  }
  return found;
}

describe('architecture', () => {
  test('every folder has a rule', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !(f in ALLOWED))).toEqual([]);
  });

  test('every source file opens with a comment saying what it is for', () => {
    const without = walk(SRC).filter((f) => !/^(\/\*\*?|\/\/)/.test(readFileSync(f, 'utf8')));
    expect(without.map((f) => relative(SRC, f))).toEqual([]);
  });

  test('imports follow the layer rules and enter folders through index.ts', () => {
    expect(violations()).toEqual([]);
  });

  test('the checker catches upward and deep imports (a checker that matches nothing would pass anything)', () => {
    const root = tempDir('moat-arch-');
    const put = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    put('agent/index.ts', 'export const a = 1;\n');
    put('agent/loop.ts', 'export const b = 2;\n');
    put('providers/index.ts', "import { a } from '../agent/index.ts';\nexport const p = a;\n");
    put('cli/run.ts', "import {\n  b,\n} from '../agent/loop.ts';\nexport const c = b;\n");
    put('store/db.ts', "import type { a } from '../providers/index.ts';\nimport { Database } from 'bun:sqlite';\nexport type S = typeof a;\nexport const d = Database;\n");
    put('agent/ui.ts', "import { Box } from 'ink';\nimport React from 'react';\nexport const u = [Box, React];\n");
    put('config/db.ts', "import { Database } from 'bun:sqlite';\nexport const d = Database;\n");
    put('tools/lazy.ts', "export const load = () => import('../providers/index.ts');\n");
    put('util/json.ts', 'export const schemaOf = () => ({});\n');
    put('agent/json.ts', 'export const schemaOf = () => ({});\n');
    put('tools/spec.ts', "import { schemaOf } from '../util/json.ts' with { type: 'macro' };\nexport const s = schemaOf();\n");
    put('util/spec.ts', "import { schemaOf } from '../agent/json.ts' with { type: 'macro' };\nexport const s = schemaOf();\n");
    expect(violations(root).sort()).toEqual([
      'agent/ui.ts imports ink: only tui/, cli/ may use ink/react',
      'agent/ui.ts imports react: only tui/, cli/ may use ink/react',
      'cli/run.ts imports ../agent/loop.ts: import another folder only through agent/index.ts',
      'config/db.ts imports bun:sqlite: only store/ may use bun:sqlite',
      'providers/index.ts imports ../agent/index.ts: providers/ must not depend on agent/',
      'tools/lazy.ts imports ../providers/index.ts: tools/ must not depend on providers/',
      'util/spec.ts imports ../agent/json.ts: util/ must not depend on agent/',
    ]);
  });
});
