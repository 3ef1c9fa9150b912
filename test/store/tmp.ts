import { rmSync } from 'node:fs';
import { afterEach } from 'bun:test';
import { tempDir } from '../support/temp.ts';

/** Real temp folders, removed after each test of the file that calls this. */
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
