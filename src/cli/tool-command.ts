/** `moat tool list|validate|exec|install|rm|init`: the WebAssembly tools from the command line. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { loadConfig, moatPaths } from '../config/index.ts';
import { DEFAULT_LIMITS, runComponent, type Limits } from '../sandbox/index.ts';
import { openStore, type Store } from '../store/index.ts';
import {
  ToolError,
  bundledComponents,
  cwdAccessOf,
  SPEC_FORMAT,
  effectOf,
  grantsFor,
  levelOf,
  loadSource,
  mapOutput,
  memoryIndex,
  namedSpecs,
  NO_MANIFEST,
  readManifest,
  registerComponent,
  stoppedResult,
  toArgs,
  moveArgsToStdin,
  type CatalogEntry,
  type ComponentSource,
  type ToolManifest,
  type ToolSpecFromHelp,
} from '../tools/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { initFiles, type InitLang } from './tool-init.ts';
import { componentCacheDir, createCatalog, storeIndex } from './wasm-tools.ts';
import { err, out } from './write-out.ts';

/**
 * `moat tool list|validate|exec|install|rm|init`: the WebAssembly tools as a
 * user sees them. Each command opens what it needs and nothing more.
 */

const env = process.env;

function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(moatPaths(env).dbFile);
  return fn(store).finally(() => store.close());
}

/** One word per grant: what `moat tool list` shows under CAPABILITIES. */
export function capabilities(spec: ToolSpecFromHelp, m: ToolManifest): string[] {
  const caps: string[] = [];
  const cwd = cwdAccessOf(spec, m);
  if (cwd !== 'none') caps.push(`cwd:${cwd}`);
  for (const p of m.paths) caps.push(`fs:${p.host}(ro)`);
  for (const h of m.networkAllow) caps.push(`net:${h}`);
  for (const e of m.env) caps.push(`env:${e}`);
  return caps;
}

function userToolsDir(): string {
  return join(moatPaths(env).configDir, 'tools');
}

async function manifestFor(file: string, explicit: string | undefined): Promise<{ manifest: ToolManifest; path?: string }> {
  const path = explicit === undefined ? file.replace(/\.wasm$/, '.toml') : resolve(explicit);
  if (explicit !== undefined && !existsSync(path)) throw new MoatError('usage', `--manifest ${explicit}: no such file`);
  const manifest = await readManifest(path);
  return manifest === undefined ? { manifest: NO_MANIFEST } : { manifest, path };
}

function componentName(file: string): string {
  const name = basename(file, '.wasm');
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) {
    throw new MoatError('usage', `${basename(file)}: a tool's file name is its name: lower case letters, digits and _ (e.g. my_tool.wasm)`);
  }
  return name;
}

function readWasm(file: string): Uint8Array {
  if (!existsSync(file)) throw new MoatError('not_found', `${file}: no such file`);
  return new Uint8Array(readFileSync(file));
}

async function toolList(opts: { cwd?: string }): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfig({ cwd, env });
  return withStore(async (store) => {
    const catalog = createCatalog({ env, projectRoot: loaded.projectRoot, index: storeIndex(store), toolLimits: loaded.toolLimits, warn: () => undefined });
    await catalog.load();
    const rows: string[][] = [['NAME', 'SOURCE', 'LEVEL', 'CAPABILITIES', 'HASH']];
    const problems: string[] = [];
    for (const e of catalog.entries()) {
      const reg = e.registered;
      if (reg === undefined || e.error !== undefined) {
        problems.push(`${e.name} (${e.origin}${e.file ? `, ${e.file}` : ''}): ${e.error ?? 'not registered'}`);
        if (reg === undefined) continue;
      }
      for (const spec of namedSpecs(e.name, reg.record.specs)) {
        rows.push([spec.name, e.origin, levelOf(spec, e.manifest), capabilities(spec, e.manifest).join(',') || '-', reg.hash.slice(0, 12)]);
      }
      for (const w of reg.warnings) problems.push(`warning: ${w}`);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    out(`${rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')).join('\n')}\n`);
    if (problems.length > 0) err(`${problems.map((p) => `moat: ${p}`).join('\n')}\n`);
    return 0;
  });
}

interface Validated {
  name: string;
  hash: string;
  specs: ToolSpecFromHelp[];
  imports: string[];
  warnings: string[];
  manifest: ToolManifest;
}

/** Loads (transpiling into the cache) and asks for help: the same path registration takes, recording nothing. */
async function validateFile(file: string, manifestPath: string | undefined): Promise<Validated> {
  const bytes = readWasm(file);
  const name = componentName(file);
  const { manifest } = await manifestFor(file, manifestPath);
  const src: ComponentSource = { name, origin: 'user', manifest, bytes };
  const index = memoryIndex();
  const reg = await registerComponent(src, { cacheDir: componentCacheDir(env), index, env });
  return { name, hash: reg.hash, specs: namedSpecs(name, reg.record.specs), imports: reg.record.imports, warnings: reg.warnings, manifest };
}

async function toolValidate(file: string, opts: { manifest?: string }): Promise<number> {
  const v = await validateFile(resolve(file), opts.manifest);
  const lines = [`component: ${v.name}`, `sha256:    ${v.hash}`, `imports:   ${v.imports.join(', ') || '(none)'}`];
  for (const spec of v.specs) {
    lines.push(
      '',
      `tool ${spec.name}${spec.version ? ` ${spec.version}` : ''}: ${spec.summary}`,
      `  permission level: ${levelOf(spec, v.manifest)} (effect: ${effectOf(spec, v.manifest)})`,
      `  capabilities:     ${capabilities(spec, v.manifest).join(', ') || 'none'}`,
      `  keywords:         ${spec.keywords.join(', ') || '-'}`,
      `  argv:             ${[v.name, ...spec.argvPrefix].join(' ')} [options] [arguments]`,
      '  JSON Schema:',
      ...JSON.stringify(spec.inputSchema, null, 2).split('\n').map((l) => `    ${l}`),
    );
  }
  out(`${lines.join('\n')}\n`);
  if (v.warnings.length > 0) err(`${v.warnings.map((w) => `moat: warning: ${w}`).join('\n')}\n`);
  return 0;
}

function parseInput(json: string | undefined): unknown {
  if (json === undefined || json.trim() === '') return {};
  try {
    return JSON.parse(json);
  } catch (e) {
    throw new MoatError('usage', `the input must be JSON, e.g. '{"text": "hi"}': ${errorMessage(e)}`);
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MiB` : `${(n / 1024).toFixed(0)} KiB`;
}

/** Finds a tool by name in the catalog, or registers a .wasm file given by path. */
async function resolveExec(target: string, manifestPath: string | undefined, store: Store, projectRoot: string, limits: ReturnType<typeof loadConfig>['toolLimits']) {
  if (target.endsWith('.wasm') || target.includes('/')) {
    const file = resolve(target);
    const name = componentName(file);
    const { manifest } = await manifestFor(file, manifestPath);
    const src: ComponentSource = { name, origin: 'user', manifest, bytes: readWasm(file) };
    const reg = await registerComponent(src, { cacheDir: componentCacheDir(env), index: memoryIndex(), env });
    return { src, hash: reg.hash, specs: namedSpecs(name, reg.record.specs), limits: (m: ToolManifest) => ({ ...DEFAULT_LIMITS, ...m.limits }) };
  }
  const catalog = createCatalog({ env, projectRoot, index: storeIndex(store), toolLimits: limits, warn: () => undefined });
  await catalog.load();
  const entry: CatalogEntry | undefined = catalog.entries().find((e) => e.registered?.tools.some((t) => t.name === target));
  if (entry?.registered === undefined) throw new MoatError('not_found', `no tool named ${target}: see moat tool list`);
  const reg = entry.registered;
  const bundled = entry.origin === 'bundled';
  const src: ComponentSource = bundled
    ? { name: entry.name, origin: 'bundled', manifest: entry.manifest, bundled: (await bundledComponents()).find((b) => b.hash === reg.hash) }
    : { name: entry.name, origin: entry.origin, manifest: entry.manifest, bytes: readWasm(entry.file ?? '') };
  const { tools, sandbox } = limits;
  const ceiling = (l: Limits): Limits => ({ ...l, fuel: Math.min(l.fuel, sandbox.maxFuel), memoryBytes: Math.min(l.memoryBytes, sandbox.maxMemoryBytes), timeoutMs: Math.min(l.timeoutMs, sandbox.maxTimeoutMs) });
  return {
    src,
    hash: reg.hash,
    specs: namedSpecs(entry.name, reg.record.specs).filter((s) => s.name === target),
    limits: (m: ToolManifest) => ceiling({ ...DEFAULT_LIMITS, ...m.limits, ...tools[entry.name], ...tools[target] }),
  };
}

async function toolExec(target: string, json: string | undefined, opts: { manifest?: string; cwd?: string }): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfig({ cwd, env });
  return withStore(async (store) => {
    const r = await resolveExec(target, opts.manifest, store, loaded.projectRoot, loaded.toolLimits);
    const spec = r.specs.find((s) => s.name === target) ?? (r.specs.length === 1 ? r.specs[0] : undefined);
    if (spec === undefined) throw new MoatError('usage', `${target} has several tools: name one of ${r.specs.map((s) => s.name).join(', ')}`);
    let argv: string[];
    try {
      argv = toArgs(spec, parseInput(json));
    } catch (e) {
      // Bad input is the user's mistake: the same message the model would get, as one usage error.
      if (e instanceof ToolError) throw new MoatError('usage', e.message.replace(/:\n- /, ': ').replace(/\n- /g, '; '));
      throw e;
    }
    const grants = grantsFor({ ...r.src.manifest, cwd: cwdAccessOf(spec, r.src.manifest) }, { cwd, env });
    const component = await loadSource(r.src, r.hash, componentCacheDir(env));
    // The bundled tools read long or NUL-carrying arguments from stdin, as in a session.
    const passed = r.src.origin === 'bundled' ? moveArgsToStdin(argv) : { argv };
    const run = await runComponent(component, {
      args: [r.src.name, ...passed.argv],
      ...(passed.stdin === undefined ? {} : { stdin: passed.stdin }),
      env: grants.env,
      preopens: grants.preopens,
      limits: r.limits(r.src.manifest),
      ...(grants.network === undefined ? {} : { network: grants.network }),
      isolation: r.src.origin === 'bundled' ? 'in-process' : 'child',
    });
    const result = stoppedResult(spec.name, run) ?? mapOutput(run.exitCode, run.stdout, run.stderr);
    const content = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
    out(`${content}\n`);
    err(`${result.isError ? 'error · ' : ''}exit ${run.exitCode} · fuel used ${run.fuelUsed.toLocaleString('en-US')} · peak memory ${formatBytes(run.peakMemoryBytes)} · ${run.durationMs.toFixed(1)} ms\n`);
    return result.isError ? 1 : 0;
  });
}

async function toolInstall(file: string, opts: { manifest?: string }): Promise<number> {
  const path = resolve(file);
  const v = await validateFile(path, opts.manifest);
  const dir = userToolsDir();
  mkdirSync(dir, { recursive: true });
  const target = join(dir, `${v.name}.wasm`);
  copyFileSync(path, target);
  const manifest = await manifestFor(path, opts.manifest);
  const tomlTarget = join(dir, `${v.name}.toml`);
  if (manifest.path !== undefined) copyFileSync(manifest.path, tomlTarget);
  else rmSync(tomlTarget, { force: true });
  await withStore(async (store) => {
    // Indexed now, so the next start neither transpiles nor asks for help.
    storeIndex(store).put({ hash: v.hash, format: SPEC_FORMAT, name: v.name, specs: v.specs, imports: v.imports, exportsCabiRealloc: v.warnings.length === 0 });
    store.wasmTools.recordInstall({ name: v.name, version: v.specs[0]?.version ?? null, hash: v.hash, file: target, capabilities: [...new Set(v.specs.flatMap((s) => capabilities(s, v.manifest)))] });
  });
  out(`installed ${v.name} (${v.specs.map((s) => s.name).join(', ')}) → ${target}\n`);
  for (const w of v.warnings) err(`moat: warning: ${w}\n`);
  return 0;
}

async function toolRm(name: string): Promise<number> {
  const dir = userToolsDir();
  return withStore(async (store) => {
    const install = store.wasmTools.getInstall(name);
    const file = install?.file ?? join(dir, `${name}.wasm`);
    if (!existsSync(file) && install === undefined) throw new MoatError('not_found', `no user tool ${name} in ${dir}`);
    rmSync(file, { force: true });
    rmSync(file.replace(/\.wasm$/, '.toml'), { force: true });
    store.wasmTools.removeInstall(name);
    out(`removed ${name}\n`);
    return 0;
  });
}

async function toolInit(name: string, opts: { lang: InitLang; cwd?: string }): Promise<number> {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) throw new MoatError('usage', `${name}: a tool name is lower case letters, digits and _`);
  const dir = join(resolve(opts.cwd ?? process.cwd()), name);
  if (existsSync(dir)) throw new MoatError('usage', `${dir} already exists`);
  for (const [rel, text] of Object.entries(initFiles(name, opts.lang))) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text, rel.endsWith('.sh') ? { mode: 0o755 } : {});
  }
  out(`created ${dir}\nbuild it:  sh ${join(name, 'build.sh')}\nthen:      moat tool validate ${join(name, `${name}.wasm`)}\n`);
  return 0;
}

export const toolCommands = { toolList, toolValidate, toolExec, toolInstall, toolRm, toolInit };
