/** One WebAssembly command as one moat Tool. */
import { z } from 'zod';
import { DEFAULT_LIMITS, type Limits, type LoadedComponent, type RunResult } from '../../sandbox/index.ts';
import { defineTool, type Access, type AnyTool, type Effect, type ToolResult } from '../types.ts';
import { inputProblems, toArgs } from './args.ts';
import type { CwdAccess, ManifestLimits, ToolManifest } from './manifest.ts';
import type { PermissionLevel, ToolSpecFromHelp } from './spec.ts';

/**
 * One discovered WebAssembly command → one moat Tool. The schema the model
 * sees is the spec's (parsed from the tool's help); the input is validated
 * against the same spec, so what the model may send and what becomes argv
 * cannot drift apart. Every call is a fresh sandboxed instance under the
 * manifest's grants — narrowed to what the session itself may do.
 */

export type ToolOrigin = 'bundled' | 'user' | 'project';

/** `[tools.<name>]` overrides from config (already checked against the ceiling there). */
export interface LimitOverride {
  fuel?: number;
  memoryBytes?: number;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

/** `[sandbox]` ceilings: no manifest and no override goes above them. */
export interface LimitCeiling {
  fuel?: number;
  memoryBytes?: number;
  timeoutMs?: number;
}

export interface WasmToolDef {
  spec: ToolSpecFromHelp;
  manifest: ToolManifest;
  origin: ToolOrigin;
  /** sha256 of the component bytes. */
  hash: string;
  /** argv[0] the component is run with (its file name without `.wasm`). */
  argv0: string;
  /** Loads (or returns the loaded) component: lazily, so registering a tool costs no load. */
  component(): Promise<LoadedComponent>;
  limits: Limits;
  /** Where declared environment variables are read from (the CLI passes process.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** See GrantContext.allowPrivateNetwork. */
  allowPrivateNetwork?: boolean;
}

/** The permission level a tool runs at: its help's `PermissionLevel`, else what its manifest implies. */
export function levelOf(spec: ToolSpecFromHelp, manifest: ToolManifest): PermissionLevel {
  return spec.permissionLevel ?? (manifest.cwd === 'read-write' ? 'write' : 'read');
}

/** none/read → read, write → write, execute → execute; a network grant makes a non-execute tool `network`. */
export function effectOf(spec: ToolSpecFromHelp, manifest: ToolManifest): Effect {
  const level = levelOf(spec, manifest);
  if (level === 'execute') return 'execute';
  if (manifest.networkAllow.length > 0) return 'network';
  return level === 'write' ? 'write' : 'read';
}

/**
 * The working-folder access a call actually gets: the manifest's, but never
 * more than the declared level allows — a tool that says it only reads gets
 * a read-only mount even if its manifest asks for read-write, because its
 * calls are approved (and run in parallel) as reads.
 */
export function cwdAccessOf(spec: ToolSpecFromHelp, manifest: ToolManifest): CwdAccess {
  if (manifest.cwd === 'none') return 'none';
  const level = levelOf(spec, manifest);
  return level === 'write' || level === 'execute' ? manifest.cwd : 'read';
}

/** DEFAULT_LIMITS ⊕ manifest ⊕ config override, each capped by the ceiling. */
export function effectiveLimits(manifest: ManifestLimits, override: LimitOverride = {}, ceiling: LimitCeiling = {}): Limits {
  const l: Limits = { ...DEFAULT_LIMITS, ...manifest, ...override };
  const cap = (v: number, max: number | undefined): number => (max === undefined ? v : Math.min(v, max));
  return {
    fuel: cap(l.fuel, ceiling.fuel),
    memoryBytes: cap(l.memoryBytes, ceiling.memoryBytes),
    timeoutMs: cap(l.timeoutMs, ceiling.timeoutMs),
    maxOutputBytes: l.maxOutputBytes,
  };
}


/** A run that a limit or a trap stopped: an error the model can act on, with the sandbox's own words. */
export function stoppedResult(name: string, r: RunResult): ToolResult | undefined {
  if (r.limitHit !== undefined) {
    const hint = r.limitHit === 'output' ? ' Ask for less output.' : r.limitHit === 'timeout' || r.limitHit === 'fuel' ? ' Try a smaller input.' : '';
    return { content: `${name} was stopped: ${r.message ?? r.limitHit}.${hint}`, isError: true };
  }
  if (r.trap !== undefined) return { content: `${name} crashed: ${r.message ?? r.trap}`, isError: true };
  return undefined;
}

function summary(spec: ToolSpecFromHelp, input: unknown): string {
  let argv: string[];
  try {
    argv = toArgs(spec, input);
  } catch {
    argv = [];
  }
  const line = [spec.name, ...argv.slice(spec.argvPrefix.length).map((a) => (/^[\w./:=@%+-]+$/.test(a) ? a : JSON.stringify(a)))].join(' ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function wasmTool(def: WasmToolDef): AnyTool {
  const { spec, manifest } = def;
  const cwdAccess = cwdAccessOf(spec, manifest);
  const access: Access = cwdAccess === 'read-write' ? 'write' : 'read';
  // The spec validates; its problems become one zod issue each, worded like toArgs's. Built on the
  // first call: start-up registers a few dozen of these tools, and the request needs only their JSON Schema.
  let inputSchema: z.ZodType<unknown> | undefined;
  return defineTool({
    name: spec.name,
    description: spec.description === '' ? spec.summary : spec.description,
    get inputSchema() {
      return (inputSchema ??= z.unknown().superRefine((input, ctx) => {
        for (const message of inputProblems(spec, input)) ctx.addIssue({ code: 'custom', message });
      }));
    },
    jsonSchema: spec.inputSchema as unknown as Record<string, unknown>,
    keywords: spec.keywords,
    effect: effectOf(spec, manifest),
    intent: (input, ctx) => {
      const paths: { path: string; access: Access }[] = cwdAccess === 'none' ? [] : [{ path: ctx.cwd, access }];
      // A bundled tool's extra folders are part of moat (the zone database); a
      // user's or a project's are the manifest author's request, which the
      // permission rules must see (a cloned repository's tool asking for ~/.ssh).
      if (def.origin !== 'bundled') for (const p of manifest.paths) paths.push({ path: p.host, access: 'read' });
      return { ruleName: spec.name, paths, summary: summary(spec, input) };
    },
    // Loaded on first use: with task-call, output-validator, hook-process, process-grants, discover and wasm-call up front, -p's first byte came 5.4 ms later (CPU +2.9 ms, RSS +1.1 MB; startup bench, n=20).
    execute: async (input, ctx) => (await import('./wasm-call.ts')).runWasmCall(def, cwdAccess, input, ctx),
  }) as unknown as AnyTool;
}
