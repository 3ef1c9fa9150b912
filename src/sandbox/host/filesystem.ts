/** WASI host: wasi:filesystem over the run's preopened folders. */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import type { Preopen } from '../types.ts';
import type { HostContext } from './context.ts';
import {
  descriptorType,
  fsErrorCode,
  resolveIn,
  timestampSeconds,
  toDescriptorStat,
  type DescriptorStat,
  type DescriptorType,
  type FsErrorCode,
  type NewTimestamp,
} from './fs-support.ts';
import { failed, InputStream, IoError, OutputStream, type ByteSink, type ByteSource } from './streams.ts';

/**
 * wasi:filesystem/types and /preopens over synchronous node:fs. A descriptor
 * is either a directory (a real host path inside its preopen) or an open file.
 * Every path argument goes through `resolveIn` (shared containment); every
 * mutation is refused on a read-only preopen; links can never be created.
 *
 * Errors are thrown as the bare WIT error-code string: jco lowers a thrown
 * non-Error into the `err` case of the function's result.
 */

interface DescriptorFlags {
  read?: boolean;
  write?: boolean;
  mutateDirectory?: boolean;
}
interface PathFlags {
  symlinkFollow?: boolean;
}
interface OpenFlags {
  create?: boolean;
  directory?: boolean;
  exclusive?: boolean;
  truncate?: boolean;
}

/** Open files of one run, closed when it ends whatever the guest did. */
export class FdTable {
  private readonly open = new Set<number>();
  add(fd: number): number {
    this.open.add(fd);
    return fd;
  }
  close(fd: number): void {
    if (this.open.delete(fd)) closeSync(fd);
  }
  closeAll(): void {
    for (const fd of this.open) closeSync(fd);
    this.open.clear();
  }
}

interface DescriptorInit {
  root: string;
  path: string;
  readOnly: boolean;
  fd: number | undefined;
  flags: DescriptorFlags;
  ctx: HostContext;
  fds: FdTable;
}

function fail(code: FsErrorCode): never {
  throw code;
}

function attempt<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw fsErrorCode(e);
  }
}

class FileSource implements ByteSource {
  constructor(
    private readonly fd: number,
    private position: number,
  ) {}
  read(max: number): Uint8Array | undefined {
    const buf = new Uint8Array(max);
    let n: number;
    try {
      n = readSync(this.fd, buf, 0, max, this.position);
    } catch (e) {
      throw failed(String(e), fsErrorCode(e));
    }
    if (n === 0 && max > 0) return undefined;
    this.position += n;
    return buf.subarray(0, n);
  }
}

class FileSink implements ByteSink {
  constructor(
    private readonly fd: number,
    private position: number | 'append',
  ) {}
  write(bytes: Uint8Array): void {
    try {
      const at = this.position === 'append' ? fstatSync(this.fd).size : this.position;
      const n = writeSync(this.fd, bytes, 0, bytes.length, at);
      if (this.position !== 'append') this.position += n;
    } catch (e) {
      throw failed(String(e), fsErrorCode(e));
    }
  }
}

export class Descriptor {
  readonly #s: DescriptorInit;

  private constructor(init: DescriptorInit) {
    this.#s = init;
  }

  /** A preopen's root descriptor. Throws (host side) when the folder does not exist. */
  static preopen(p: Preopen, ctx: HostContext, fds: FdTable): Descriptor {
    const root = realpathSync.native(p.hostPath);
    if (!statSync(root).isDirectory()) throw new Error(`preopen ${p.hostPath} is not a directory`);
    return new Descriptor({ root, path: root, readOnly: p.readOnly, fd: undefined, flags: { read: true, mutateDirectory: !p.readOnly }, ctx, fds });
  }

  private get s(): DescriptorInit {
    this.#s.ctx.checkDeadline();
    return this.#s;
  }

  private file(): number {
    const fd = this.s.fd;
    return fd === undefined ? fail('is-directory') : fd;
  }

  private dir(): string {
    const s = this.s;
    return s.fd === undefined ? s.path : fail('not-directory');
  }

  private writable(): void {
    if (this.#s.readOnly) fail('read-only');
  }

  private at(path: string, follow: boolean): string {
    const r = resolveIn(this.#s.root, this.dir(), path, follow);
    return r.ok ? r.path : fail(r.code);
  }

  readViaStream(offset: bigint): InputStream {
    return new InputStream(new FileSource(this.file(), Number(offset)), this.#s.ctx);
  }
  writeViaStream(offset: bigint): OutputStream {
    this.writable();
    return new OutputStream(new FileSink(this.file(), Number(offset)), this.#s.ctx);
  }
  appendViaStream(): OutputStream {
    this.writable();
    return new OutputStream(new FileSink(this.file(), 'append'), this.#s.ctx);
  }
  advise(): void {}
  syncData(): void {}
  sync(): void {}
  getFlags(): DescriptorFlags {
    return this.s.flags;
  }
  getType(): DescriptorType {
    const s = this.s;
    return s.fd === undefined ? 'directory' : descriptorType(fstatSync(s.fd));
  }
  setSize(size: bigint): void {
    this.writable();
    const fd = this.file();
    attempt(() => ftruncateSync(fd, Number(size)));
  }
  setTimes(atime: NewTimestamp, mtime: NewTimestamp): void {
    this.writable();
    const s = this.s;
    const st = attempt(() => (s.fd === undefined ? statSync(s.path) : fstatSync(s.fd)));
    const a = timestampSeconds(atime, st.atimeMs / 1000);
    const m = timestampSeconds(mtime, st.mtimeMs / 1000);
    attempt(() => (s.fd === undefined ? utimesSync(s.path, a, m) : futimesSync(s.fd, a, m)));
  }
  read(length: bigint, offset: bigint): [Uint8Array, boolean] {
    const fd = this.file();
    const want = Number(length > 1_048_576n ? 1_048_576n : length);
    const buf = new Uint8Array(want);
    const n = attempt(() => readSync(fd, buf, 0, want, Number(offset)));
    return [buf.subarray(0, n), n < want];
  }
  write(buffer: Uint8Array, offset: bigint): bigint {
    this.writable();
    const fd = this.file();
    return BigInt(attempt(() => writeSync(fd, buffer, 0, buffer.length, Number(offset))));
  }
  readDirectory(): DirectoryEntryStream {
    const path = this.dir();
    return new DirectoryEntryStream(attempt(() => readdirSync(path, { withFileTypes: true })).map((d) => ({ type: descriptorType(d), name: d.name })));
  }
  createDirectoryAt(path: string): void {
    this.writable();
    const p = this.at(path, false);
    attempt(() => mkdirSync(p));
  }
  stat(): DescriptorStat {
    const s = this.s;
    return toDescriptorStat(attempt(() => (s.fd === undefined ? statSync(s.path, { bigint: true }) : fstatSync(s.fd, { bigint: true }))));
  }
  statAt(flags: PathFlags, path: string): DescriptorStat {
    const follow = flags.symlinkFollow === true;
    const p = this.at(path, follow);
    return toDescriptorStat(attempt(() => (follow ? statSync(p, { bigint: true }) : lstatSync(p, { bigint: true }))));
  }
  setTimesAt(flags: PathFlags, path: string, atime: NewTimestamp, mtime: NewTimestamp): void {
    this.writable();
    const p = this.at(path, flags.symlinkFollow === true);
    const st = attempt(() => statSync(p));
    attempt(() => utimesSync(p, timestampSeconds(atime, st.atimeMs / 1000), timestampSeconds(mtime, st.mtimeMs / 1000)));
  }
  /** Hard links could alias files outside the preopen's rules: never created. */
  linkAt(): void {
    this.#s.ctx.checkDeadline();
    fail('not-permitted');
  }
  /** A guest-made symlink would be a path the host has to trust later: never created. */
  symlinkAt(): void {
    this.#s.ctx.checkDeadline();
    fail('not-permitted');
  }
  openAt(pathFlags: PathFlags, path: string, openFlags: OpenFlags, flags: DescriptorFlags): Descriptor {
    const s = this.s;
    const wantsWrite = flags.write === true || openFlags.create === true || openFlags.truncate === true;
    if (wantsWrite && s.readOnly) fail('read-only');
    const p = this.at(path, pathFlags.symlinkFollow === true);
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      if (openFlags.create !== true || openFlags.directory === true) throw fsErrorCode(e);
    }
    if (isDir) {
      if (openFlags.exclusive === true && openFlags.create === true) fail('exist');
      if (flags.write === true) fail('is-directory');
      return new Descriptor({ root: s.root, path: p, readOnly: s.readOnly, fd: undefined, flags, ctx: s.ctx, fds: s.fds });
    }
    if (openFlags.directory === true) fail('not-directory');
    let mode = flags.write === true ? (flags.read === true ? constants.O_RDWR : constants.O_WRONLY) : constants.O_RDONLY;
    if (openFlags.create === true) mode |= constants.O_CREAT;
    if (openFlags.exclusive === true) mode |= constants.O_EXCL;
    if (openFlags.truncate === true) mode |= constants.O_TRUNC;
    // p is already resolved: if something swapped it for a symlink since the check, refuse.
    mode |= constants.O_NOFOLLOW;
    const fd = s.fds.add(attempt(() => openSync(p, mode, 0o644)));
    return new Descriptor({ root: s.root, path: p, readOnly: s.readOnly, fd, flags, ctx: s.ctx, fds: s.fds });
  }
  readlinkAt(path: string): string {
    const p = this.at(path, false);
    return attempt(() => readlinkSync(p));
  }
  removeDirectoryAt(path: string): void {
    this.writable();
    const p = this.at(path, false);
    if (p === this.#s.root) fail('not-permitted');
    attempt(() => rmdirSync(p));
  }
  renameAt(oldPath: string, newDescriptor: Descriptor, newPath: string): void {
    this.writable();
    newDescriptor.writable();
    const from = this.at(oldPath, false);
    const to = newDescriptor.at(newPath, false);
    if (from === this.#s.root) fail('not-permitted');
    attempt(() => renameSync(from, to));
  }
  unlinkFileAt(path: string): void {
    this.writable();
    const p = this.at(path, false);
    attempt(() => unlinkSync(p));
  }
  isSameObject(other: Descriptor): boolean {
    const a = this.metadataHash();
    const b = other.metadataHash();
    return a.lower === b.lower && a.upper === b.upper;
  }
  metadataHash(): { lower: bigint; upper: bigint } {
    const s = this.s;
    const st = attempt(() => (s.fd === undefined ? statSync(s.path, { bigint: true }) : fstatSync(s.fd, { bigint: true })));
    return { lower: st.ino, upper: st.dev };
  }
  metadataHashAt(flags: PathFlags, path: string): { lower: bigint; upper: bigint } {
    const follow = flags.symlinkFollow === true;
    const p = this.at(path, follow);
    const st = attempt(() => (follow ? statSync(p, { bigint: true }) : lstatSync(p, { bigint: true })));
    return { lower: st.ino, upper: st.dev };
  }
  /** jco calls this when the guest drops the handle. */
  [Symbol.dispose](): void {
    const fd = this.#s.fd;
    if (fd !== undefined) this.#s.fds.close(fd);
  }
}

export class DirectoryEntryStream {
  private i = 0;
  constructor(private readonly entries: { type: DescriptorType; name: string }[]) {}
  readDirectoryEntry(): { type: DescriptorType; name: string } | undefined {
    return this.entries[this.i++];
  }
}

/** `filesystem-error-code(err)`: the code behind a stream's last-operation-failed error. */
export function filesystemErrorCode(err: IoError): string | undefined {
  return err.fsCode;
}

export interface FilesystemHost {
  types: { Descriptor: typeof Descriptor; DirectoryEntryStream: typeof DirectoryEntryStream; filesystemErrorCode: typeof filesystemErrorCode };
  preopens: { getDirectories(): [Descriptor, string][] };
}

/** The two filesystem interfaces for one run: exactly the granted preopens. */
export function createFilesystem(preopens: readonly Preopen[], ctx: HostContext, fds: FdTable): FilesystemHost {
  const dirs: [Descriptor, string][] = preopens.map((p) => [Descriptor.preopen(p, ctx, fds), p.guestPath]);
  return {
    types: { Descriptor, DirectoryEntryStream, filesystemErrorCode },
    preopens: { getDirectories: () => dirs },
  };
}
