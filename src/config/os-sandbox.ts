/**
 * The OS sandbox's configuration merged from the layers: `[sandbox] mode`,
 * `scrub_env`, `[sandbox.filesystem]` and `[sandbox.network]`. A project's
 * `.moat/config.toml` (a cloned repository) may only tighten it: add denies,
 * add variables to scrub, or require the sandbox. Granting more (write roots,
 * hosts) or turning the sandbox off is the user's choice alone.
 */
import { resolve } from 'node:path';
import type { SandboxConfig, SandboxMode } from '../contracts/index.ts';
import type { MoatError } from '../util/index.ts';
import { expandHome, type Env } from './paths.ts';
import type { FileConfig } from './schema.ts';

const UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KIB: 2 ** 10, MIB: 2 ** 20, GIB: 2 ** 30, TIB: 2 ** 40 };

/** Bytes in a size the schema accepted ("2 GiB", "512MiB", 1048576). */
export function parseByteSize(size: number | string): number {
  if (typeof size === 'number') return size;
  const m = /^(\d+(?:\.\d+)?)\s*([A-Za-z]*)$/.exec(size.trim());
  return Math.floor(Number(m?.[1] ?? 0) * (UNITS[(m?.[2] ?? '').toUpperCase() || 'B'] ?? 1));
}

interface SandboxLayer {
  data: FileConfig;
  scope: 'user' | 'project' | 'env' | 'flag';
  baseDir: string;
  fail(path: (string | number)[], message: string): MoatError;
}

const STRICTNESS: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

export function mergeOsSandbox(layers: readonly SandboxLayer[], env: Env): SandboxConfig {
  const out: SandboxConfig = { mode: 'auto', scrubEnv: undefined, scrubEnvExtra: [], allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [], allowLoopback: false, limits: {} };
  const add = (list: string[], items: readonly string[] | undefined, abs: (s: string) => string = (s) => s): void => {
    for (const item of items ?? []) {
      const v = abs(item);
      if (!list.includes(v)) list.push(v);
    }
  };
  for (const layer of layers) {
    const s = layer.data.sandbox;
    if (s === undefined) continue;
    const path = (p: string): string => resolve(layer.baseDir, expandHome(p, env));
    const project = layer.scope === 'project';
    if (s.mode !== undefined) {
      if (project && STRICTNESS[s.mode] < STRICTNESS[out.mode]) {
        throw layer.fail(['sandbox', 'mode'], `a project may only make the sandbox stricter; "${s.mode}" can only be set in the user config`);
      }
      out.mode = s.mode;
    }
    if (project) {
      if ((s.filesystem?.allow_write ?? []).length > 0) throw layer.fail(['sandbox', 'filesystem', 'allow_write'], 'a project cannot grant write access; set it in the user config');
      if ((s.network?.allow ?? []).length > 0) throw layer.fail(['sandbox', 'network', 'allow'], 'a project cannot grant network access; set it in the user config');
      if ((s.network?.allow_unix_sockets ?? []).length > 0) throw layer.fail(['sandbox', 'network', 'allow_unix_sockets'], 'a project cannot grant Unix sockets; set it in the user config');
      if (s.network?.allow_loopback === true) throw layer.fail(['sandbox', 'network', 'allow_loopback'], 'a project cannot grant loopback access; set it in the user config');
      add(out.scrubEnvExtra, s.scrub_env);
    } else if (s.scrub_env !== undefined) {
      out.scrubEnv = [...s.scrub_env];
    }
    add(out.allowWrite, s.filesystem?.allow_write, path);
    add(out.denyRead, s.filesystem?.deny_read, path);
    add(out.denyWrite, s.filesystem?.deny_write, path);
    add(out.allowNetwork, s.network?.allow);
    add(out.denyNetwork, s.network?.deny);
    add(out.allowUnixSockets, s.network?.allow_unix_sockets, path);
    if (s.network?.allow_loopback !== undefined) out.allowLoopback = s.network.allow_loopback;
    const limit = (key: 'pids' | 'memoryBytes' | 'fileSizeBytes', value: number | undefined, name: string): void => {
      if (value === undefined) return;
      const current = out.limits?.[key];
      if (project && current !== undefined && value > current) throw layer.fail(['sandbox', name], `a project may only lower ${name}; a higher one can only be set in the user config`);
      out.limits = { ...out.limits, [key]: value };
    };
    limit('pids', s.pids_limit, 'pids_limit');
    limit('memoryBytes', s.memory_limit === undefined ? undefined : parseByteSize(s.memory_limit), 'memory_limit');
    limit('fileSizeBytes', s.file_size_limit === undefined ? undefined : parseByteSize(s.file_size_limit), 'file_size_limit');
  }
  return out;
}
