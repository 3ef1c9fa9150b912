import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'bun:test';

/** Real temp folders, removed after each test of the file that calls this. */
export function useTmp(): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(os.tmpdir(), 'moat-'));
    dirs.push(d);
    return d;
  };
}
