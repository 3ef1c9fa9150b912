/** `[tools.<name>]` limits for WebAssembly tools and the `[sandbox]` ceiling. */
import { parseDuration, type MoatError } from '../util/index.ts';
import type { FileConfig } from './schema.ts';

/**
 * `[tools.<name>]` limit overrides and the `[sandbox]` ceiling they must stay
 * under. The ceiling only ever goes down as layers are merged: a project's
 * `.moat/config.toml` (a cloned repository) may tighten it, never loosen
 * what the user set. An override above the ceiling is an error at its own
 * file, line and key, not a silent clamp.
 */

export interface ToolLimitOverride {
  fuel?: number;
  memoryBytes?: number;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

export interface SandboxCeiling {
  maxFuel: number;
  maxMemoryBytes: number;
  maxTimeoutMs: number;
}

/** `[tools.<name>] timeout` and `retry`: how the tool runner runs that tool's calls. */
export interface ToolRunConfig {
  timeoutMs?: number;
  retry?: { attempts: number; backoff: 'exponential' | 'fixed'; initialMs: number };
}

export interface ToolLimitsConfig {
  /** By tool or component name. */
  tools: Record<string, ToolLimitOverride>;
  /** By tool name (any tool: built-in, WebAssembly, MCP). */
  runs: Record<string, ToolRunConfig>;
  sandbox: SandboxCeiling;
}

/** Generous by default: a tool's own manifest is the usual limit; this stops a typo of three zeros. */
export const DEFAULT_SANDBOX_CEILING: SandboxCeiling = {
  maxFuel: 100_000_000_000,
  maxMemoryBytes: 1024 * 1024 * 1024,
  maxTimeoutMs: 120_000,
};

interface LimitLayer {
  data: FileConfig;
  fail(path: (string | number)[], message: string): MoatError;
}

const MB = 1024 * 1024;

export function mergeToolLimits(layers: readonly LimitLayer[]): ToolLimitsConfig {
  const sandbox = { ...DEFAULT_SANDBOX_CEILING };
  for (const { data } of layers) {
    const s = data.sandbox;
    if (s === undefined) continue;
    if (s.max_fuel !== undefined) sandbox.maxFuel = Math.min(sandbox.maxFuel, s.max_fuel);
    if (s.max_memory_mb !== undefined) sandbox.maxMemoryBytes = Math.min(sandbox.maxMemoryBytes, s.max_memory_mb * MB);
    if (s.max_timeout_ms !== undefined) sandbox.maxTimeoutMs = Math.min(sandbox.maxTimeoutMs, s.max_timeout_ms);
  }
  const tools: Record<string, ToolLimitOverride> = {};
  const runs: Record<string, ToolRunConfig> = {};
  for (const layer of layers) {
    for (const [name, t] of Object.entries(layer.data.tools ?? {})) {
      const over = (key: string, value: number, max: number, ceilingKey: string): void => {
        if (value > max) throw layer.fail(['tools', name, key], `must be at most ${max.toLocaleString('en-US')} (the ceiling: [sandbox] ${ceilingKey})`);
      };
      const out: ToolLimitOverride = { ...tools[name] };
      if (t.fuel !== undefined) {
        over('fuel', t.fuel, sandbox.maxFuel, 'max_fuel');
        out.fuel = t.fuel;
      }
      if (t.memory_mb !== undefined) {
        over('memory_mb', t.memory_mb, sandbox.maxMemoryBytes / MB, 'max_memory_mb');
        out.memoryBytes = t.memory_mb * MB;
      }
      if (t.timeout_ms !== undefined) {
        over('timeout_ms', t.timeout_ms, sandbox.maxTimeoutMs, 'max_timeout_ms');
        out.timeoutMs = t.timeout_ms;
      }
      if (t.output_kb !== undefined) out.maxOutputBytes = t.output_kb * 1024;
      tools[name] = out;
      const run: ToolRunConfig = { ...runs[name] };
      if (t.timeout !== undefined) {
        const ms = parseDuration(t.timeout);
        if (ms === undefined) throw layer.fail(['tools', name, 'timeout'], `"${t.timeout}" is not a duration (write 30s, 2m or 500ms)`);
        run.timeoutMs = ms;
      }
      if (t.retry !== undefined) {
        const initial = t.retry.initial ?? '500ms';
        const initialMs = parseDuration(initial);
        if (initialMs === undefined) throw layer.fail(['tools', name, 'retry', 'initial'], `"${initial}" is not a duration (write 500ms or 2s)`);
        run.retry = { attempts: t.retry.attempts, backoff: t.retry.backoff ?? 'exponential', initialMs };
      }
      if (run.timeoutMs !== undefined || run.retry !== undefined) runs[name] = run;
    }
  }
  return { tools, runs, sandbox };
}
