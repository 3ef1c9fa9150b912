/** What moat remembers about a component between runs. */
import { isRecord } from '../../util/index.ts';
import type { ToolSpecFromHelp } from './spec.ts';

/**
 * What moat remembers about a component between runs, keyed by the sha256 of
 * its bytes: its parsed specs (so a start never runs `--help` again), its
 * imports and whether it exports `cabi_realloc`. Changed bytes are another
 * hash, so an entry is never stale; `format` retires entries written by an
 * older help parser. The store implements this (SQLite); tools/ only sees
 * the interface.
 */

/** Bump when the help parser or the spec shape changes: older entries are then rediscovered. */
export const SPEC_FORMAT = 1;

export interface ComponentRecord {
  hash: string;
  format: number;
  /** The component's name when it was indexed (for `moat tool list` and debugging). */
  name: string;
  specs: ToolSpecFromHelp[];
  imports: string[];
  exportsCabiRealloc: boolean;
}

export interface ComponentIndex {
  get(hash: string): ComponentRecord | undefined;
  put(record: ComponentRecord): void;
}


/** A light shape check of stored specs (they were written by this code, but a file can be edited). */
export function isSpecList(v: unknown): v is ToolSpecFromHelp[] {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every(
      (s: unknown) =>
        isRecord(s) &&
        s.type === 'tool_spec' &&
        typeof s.name === 'string' &&
        Array.isArray(s.options) &&
        Array.isArray(s.arguments) &&
        Array.isArray(s.argvPrefix) &&
        isRecord(s.inputSchema),
    )
  );
}

/** An in-memory index (tests, and `moat tool validate`, which must not record anything). */
export function memoryIndex(): ComponentIndex & { records: Map<string, ComponentRecord> } {
  const records = new Map<string, ComponentRecord>();
  return {
    records,
    get: (hash) => records.get(hash),
    put: (r) => void records.set(r.hash, r),
  };
}
