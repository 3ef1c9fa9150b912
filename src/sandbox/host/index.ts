/** moat's WASI 0.2 host: one fresh import object per run. */
import type { NetworkGrant, Preopen } from '../types.ts';
import { createCli } from './cli.ts';
import { createClocks, randomInterfaces } from './clocks-random.ts';
import { HostContext } from './context.ts';
import { createFilesystem, FdTable, filesystemErrorCode } from './filesystem.ts';
import { createHttp } from './http.ts';
import { BufferSource, CaptureSink, InputStream, IoError, OutputStream, Pollable, poll } from './streams.ts';

export { HostContext } from './context.ts';
export { LimitError, WasiExit, limitMessages, formatBytes, formatCount, formatDuration } from './errors.ts';

/**
 * moat's WASI 0.2 host: one fresh import object per run, made only of what
 * the request grants. `wasi:sockets` is never provided; `wasi:http` only with
 * a network grant. A component importing anything else fails to instantiate
 * (and is refused earlier, at load, by checkImports).
 */

export interface HostOptions {
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  stdin?: Uint8Array;
  preopens: readonly Preopen[];
  network?: NetworkGrant;
  ctx: HostContext;
}

export interface Host {
  imports: Record<string, object>;
  stdout: CaptureSink;
  stderr: CaptureSink;
  /** Closes every file the run left open. */
  close(): void;
}

const ioInterfaces: Record<string, object> = {
  'wasi:io/error': { Error: IoError },
  'wasi:io/poll': { Pollable, poll },
  'wasi:io/streams': { InputStream, OutputStream },
};

export function createHost(o: HostOptions): Host {
  return buildHost(o);
}

function buildHost(o: HostOptions): Host {
  const { ctx } = o;
  const stdout = new CaptureSink(ctx.limits.maxOutputBytes);
  const stderr = new CaptureSink(ctx.limits.maxOutputBytes);
  const fds = new FdTable();
  const fs = createFilesystem(o.preopens, ctx, fds);
  const imports: Record<string, object> = {
    ...ioInterfaces,
    ...randomInterfaces,
    ...createClocks(ctx),
    ...createCli(
      {
        args: o.args,
        env: o.env,
        stdin: new InputStream(new BufferSource(o.stdin ?? new Uint8Array(0)), ctx),
        stdout: new OutputStream(stdout, ctx),
        stderr: new OutputStream(stderr, ctx),
      },
      ctx,
    ),
    'wasi:filesystem/types': fs.types,
    'wasi:filesystem/preopens': fs.preopens,
  };
  if (o.network !== undefined) {
    const report = (reason: string): void => {
      try {
        stderr.write(new TextEncoder().encode(`moat: network request refused: ${reason}\n`));
      } catch {
        // stderr is full: the refusal itself still reaches the guest as its error code.
      }
    };
    Object.assign(imports, createHttp(o.network, ctx, report));
  }
  return { imports, stdout, stderr, close: () => fds.closeAll() };
}

/**
 * A host whose per-run state is supplied after instantiation: the warm spare
 * instance is created while moat is idle, before the call it will serve is
 * known. Its import object is made of the static parts (the resource classes
 * the glue checks with `instanceof`, the random functions) and, for every
 * per-run function, a stub that calls the function of the host made by
 * `bind`. Each LateHost is bound once, for one run: nothing carries over.
 * Without a network grant only (wasi:http's classes are made per run).
 */
export interface LateHost {
  imports: Record<string, object>;
  /** Builds this run's host behind the stubs. Throws if called twice. */
  bind(o: Omit<HostOptions, 'network'>): Host;
}

type HostFn = (...args: unknown[]) => unknown;

/** interface → names of its per-run functions; everything else in the import object is the same in every run. */
let perRunShape: Map<string, Set<string>> | undefined;

/**
 * Found by building two hosts and comparing: what differs is per run. A
 * per-run value must be a plain function (a stub cannot stand in for a
 * class the glue would `new` or test with `instanceof`).
 */
function shape(): Map<string, Set<string>> {
  if (perRunShape !== undefined) return perRunShape;
  const opts = (): HostOptions => ({ args: [], env: {}, preopens: [], ctx: new HostContext({ fuel: 1, memoryBytes: 0, timeoutMs: 0, maxOutputBytes: 0 }) });
  const a = buildHost(opts()).imports;
  const b = buildHost(opts()).imports;
  const out = new Map<string, Set<string>>();
  for (const [iface, members] of Object.entries(a)) {
    const other = b[iface] as Record<string, unknown>;
    for (const [name, v] of Object.entries(members as Record<string, unknown>)) {
      if (v === other[name]) continue;
      if (typeof v !== 'function' || 'prototype' in v) throw new Error(`host member ${iface}#${name} is made per run but is not a plain function`);
      let names = out.get(iface);
      if (names === undefined) out.set(iface, (names = new Set()));
      names.add(name);
    }
  }
  perRunShape = out;
  return out;
}

export function createLateHost(): LateHost {
  const perRun = shape();
  let bound: Record<string, object> | undefined;
  const template = staticImports ??= buildHost({ args: [], env: {}, preopens: [], ctx: new HostContext({ fuel: 1, memoryBytes: 0, timeoutMs: 0, maxOutputBytes: 0 }) }).imports;
  const imports: Record<string, object> = {};
  for (const [iface, members] of Object.entries(template)) {
    const names = perRun.get(iface);
    if (names === undefined) {
      imports[iface] = members;
      continue;
    }
    const out: Record<string, unknown> = { ...members };
    for (const name of names) {
      out[name] = (...args: unknown[]): unknown => {
        // Before bind only instantiation can call in (a start function): refuse it, the spare is then not used.
        if (bound === undefined) throw new Error('host called before the run was bound');
        return ((bound[iface] as Record<string, HostFn>)[name] as HostFn)(...args);
      };
    }
    imports[iface] = out;
  }
  return {
    imports,
    bind(o) {
      if (bound !== undefined) throw new Error('a late host is bound once');
      const host = buildHost(o);
      bound = host.imports;
      return host;
    },
  };
}

/** The import object of a host built once for its static members (never run). */
let staticImports: Record<string, object> | undefined;

export { filesystemErrorCode };
