import { afterEach } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { tempDir } from '../support/temp.ts';

/** Real temp folders (real paths, so /tmp symlinks do not confuse comparisons), removed after each test. */
export function useTmp(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = tempDir('moat-');
    dirs.push(d);
    return d;
  };
}

export function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
