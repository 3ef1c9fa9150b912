/** WASI host: stateless filesystem helpers (errno mapping, descriptor types). */
import type { BigIntStats, Dirent } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { checkContainment } from '../../util/index.ts';

/**
 * The pieces of the WASI filesystem host that do not hold state: errno
 * mapping, stat conversion, and path resolution through the shared
 * containment check (`util/containment.ts`, the same code the built-in file
 * tools use).
 */

export type FsErrorCode =
  | 'access'
  | 'bad-descriptor'
  | 'exist'
  | 'invalid'
  | 'io'
  | 'is-directory'
  | 'loop'
  | 'name-too-long'
  | 'no-entry'
  | 'insufficient-space'
  | 'not-directory'
  | 'not-empty'
  | 'not-permitted'
  | 'read-only'
  | 'cross-device'
  | 'unsupported'
  | 'file-too-large'
  | 'busy'
  | 'too-many-links'
  | 'invalid-seek';

const ERRNO: Record<string, FsErrorCode> = {
  ENOENT: 'no-entry',
  EACCES: 'access',
  EPERM: 'not-permitted',
  EEXIST: 'exist',
  ENOTDIR: 'not-directory',
  EISDIR: 'is-directory',
  ENOTEMPTY: 'not-empty',
  EINVAL: 'invalid',
  ELOOP: 'loop',
  EBADF: 'bad-descriptor',
  ENAMETOOLONG: 'name-too-long',
  ENOSPC: 'insufficient-space',
  EROFS: 'read-only',
  EXDEV: 'cross-device',
  EFBIG: 'file-too-large',
  EBUSY: 'busy',
  EMLINK: 'too-many-links',
  ESPIPE: 'invalid-seek',
};

/** The WASI error code for a thrown node:fs error (anything unknown is `io`). */
export function fsErrorCode(e: unknown): FsErrorCode {
  if (typeof e === 'object' && e !== null && 'code' in e) {
    const code = (e as { code: unknown }).code;
    if (typeof code === 'string') return ERRNO[code] ?? 'io';
  }
  return 'io';
}

export type DescriptorType =
  | 'unknown'
  | 'block-device'
  | 'character-device'
  | 'directory'
  | 'fifo'
  | 'symbolic-link'
  | 'regular-file'
  | 'socket';

export function descriptorType(s: Pick<Dirent, 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): DescriptorType {
  if (s.isFile()) return 'regular-file';
  if (s.isDirectory()) return 'directory';
  if (s.isSymbolicLink()) return 'symbolic-link';
  if (s.isFIFO()) return 'fifo';
  if (s.isSocket()) return 'socket';
  if (s.isCharacterDevice()) return 'character-device';
  if (s.isBlockDevice()) return 'block-device';
  return 'unknown';
}

export interface Datetime {
  seconds: bigint;
  nanoseconds: number;
}

function datetime(ns: bigint): Datetime {
  return { seconds: ns / 1_000_000_000n, nanoseconds: Number(ns % 1_000_000_000n) };
}

export interface DescriptorStat {
  type: DescriptorType;
  linkCount: bigint;
  size: bigint;
  dataAccessTimestamp: Datetime;
  dataModificationTimestamp: Datetime;
  statusChangeTimestamp: Datetime;
}

export function toDescriptorStat(s: BigIntStats): DescriptorStat {
  return {
    type: descriptorType(s),
    linkCount: s.nlink,
    size: s.size,
    dataAccessTimestamp: datetime(s.atimeNs),
    dataModificationTimestamp: datetime(s.mtimeNs),
    statusChangeTimestamp: datetime(s.ctimeNs),
  };
}

/** A `new-timestamp` from WIT, turned into what `utimesSync` takes (seconds), or `undefined` for no-change. */
export type NewTimestamp = { tag: 'no-change' } | { tag: 'now' } | { tag: 'timestamp'; val: Datetime };

export function timestampSeconds(t: NewTimestamp, current: number): number {
  switch (t.tag) {
    case 'no-change':
      return current;
    case 'now':
      return Date.now() / 1000;
    case 'timestamp':
      return Number(t.val.seconds) + t.val.nanoseconds / 1e9;
  }
}

/**
 * Resolve `path`, given relative to the directory `dir` (a real path inside
 * `root`), to the host path to operate on — or refuse with `not-permitted`.
 *
 * WASI paths are always relative to a descriptor: an absolute path is refused
 * outright, as is any `..` that climbs above the preopen and any symlink
 * (absolute, relative, to a directory, or dangling) whose target lies outside.
 *
 * With `follow` false the last component is not resolved (unlink, rename,
 * lstat and readlink act on a link itself, wherever it points); its parent is.
 */
export function resolveIn(root: string, dir: string, path: string, follow: boolean): { ok: true; path: string } | { ok: false; code: FsErrorCode } {
  if (path.startsWith('/')) return { ok: false, code: 'not-permitted' };
  if (path.includes('\0')) return { ok: false, code: 'invalid' };
  const base = basename(path);
  if (!follow && base !== '..' && base !== '.' && base !== '' && !path.endsWith('/')) {
    const parent = checkContainment([root], dir, dirname(path));
    if (!parent.ok) return { ok: false, code: 'not-permitted' };
    return { ok: true, path: join(parent.realPath, base) };
  }
  const full = checkContainment([root], dir, path === '' ? '.' : path);
  if (!full.ok) return { ok: false, code: 'not-permitted' };
  return { ok: true, path: full.realPath };
}
