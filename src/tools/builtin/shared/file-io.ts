/** File reading and writing shared by Write and Edit. */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ToolError } from '../../types.ts';
import { errnoCode } from '../../../util/index.ts';

/** What is at a path right now, for write and edit. */
export type FileKind = 'missing' | 'file' | 'folder';

export function fileKind(realPath: string): FileKind {
  try {
    return statSync(realPath).isDirectory() ? 'folder' : 'file';
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw e;
  }
}

/** The rule write and edit share: no changing a file the model has not seen. */
export function requireRead(wasRead: boolean, shown: string, verb: 'overwrite' | 'edit'): void {
  if (!wasRead) {
    throw new ToolError(`${shown} has not been read in this session. Read it with the Read tool first, then ${verb} it.`);
  }
}

export function readText(realPath: string, shown: string): string {
  try {
    return readFileSync(realPath, 'utf8');
  } catch (e) {
    if (errnoCode(e) === 'EACCES') throw new ToolError(`Permission denied reading ${shown}.`);
    throw e;
  }
}

/** Write `text`, creating parent folders; failures become instructions, not stack traces. */
export function writeText(realPath: string, shown: string, text: string): void {
  try {
    mkdirSync(dirname(realPath), { recursive: true });
    writeFileSync(realPath, text);
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'EACCES' || code === 'EPERM') throw new ToolError(`Permission denied writing ${shown}.`);
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new ToolError(`Cannot write ${shown}: a part of its parent path is a file, not a folder.`);
    }
    if (code === 'EROFS') throw new ToolError(`Cannot write ${shown}: the filesystem is read-only.`);
    if (code === 'ENOSPC') throw new ToolError(`Cannot write ${shown}: no space left on the device.`);
    throw e;
  }
}
