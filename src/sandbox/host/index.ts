import type { NetworkGrant, Preopen } from '../types.ts';
import { createCli } from './cli.ts';
import { createClocks, randomInterfaces } from './clocks-random.ts';
import type { HostContext } from './context.ts';
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
  if (o.network !== undefined) Object.assign(imports, createHttp(o.network, ctx));
  return { imports, stdout, stderr, close: () => fds.closeAll() };
}

export { filesystemErrorCode };
