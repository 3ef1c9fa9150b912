/** `[checkpoints]`: whether checkpoints are taken, how long they are kept, and the largest file they hold. */
import type { FileConfig } from './schema.ts';

export interface CheckpointsConfig {
  enabled: boolean;
  keepDays: number;
  maxFileBytes: number;
}

export const DEFAULT_CHECKPOINTS: CheckpointsConfig = { enabled: true, keepDays: 30, maxFileBytes: 10 * 1024 * 1024 };

/**
 * The user's `[checkpoints]`, over the defaults. A project's file is not
 * read for it: a cloned repository must not be able to switch off the
 * record that lets the user undo what the agent did in it.
 */
export function mergeCheckpoints(layers: readonly { data: FileConfig; scope: string }[]): CheckpointsConfig {
  const out = { ...DEFAULT_CHECKPOINTS };
  for (const { data, scope } of layers) {
    const c = data.checkpoints;
    if (c === undefined || scope !== 'user') continue;
    if (c.enabled !== undefined) out.enabled = c.enabled;
    if (c.keep_days !== undefined) out.keepDays = c.keep_days;
    if (c.max_file_mb !== undefined) out.maxFileBytes = Math.round(c.max_file_mb * 1024 * 1024);
  }
  return out;
}
