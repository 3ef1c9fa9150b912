/** The WebAssembly tool tables: component index and installs. */
import type { Database } from 'bun:sqlite';

/**
 * The WebAssembly tool tables: the component index (what registration
 * learned about each component, by the sha256 of its bytes) and the install
 * ledger of `moat tool install`. Values the tools layer owns (specs) are
 * stored as JSON and handed back as `unknown`: the store does not know their
 * shape, the tools layer checks it.
 */

export interface ComponentRow {
  hash: string;
  name: string;
  specFormat: number;
  specs: unknown;
  imports: string[];
  exportsCabiRealloc: boolean;
  createdAt: number;
  lastUsedAt: number;
}

export interface InstallRow {
  name: string;
  version: string | null;
  hash: string;
  file: string;
  capabilities: string[];
  installedAt: number;
}

interface ComponentRecord {
  hash: string;
  name: string;
  spec_format: number;
  specs: string;
  imports: string;
  exports_cabi_realloc: number;
  created_at: number;
  last_used_at: number;
}

interface InstallRecord {
  name: string;
  version: string | null;
  hash: string;
  file: string;
  capabilities: string;
  installed_at: number;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export class WasmToolRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  getComponent(hash: string): ComponentRow | undefined {
    const r = this.db.query<ComponentRecord, [string]>('SELECT * FROM wasm_components WHERE hash = ?').get(hash);
    if (!r) return undefined;
    return {
      hash: r.hash,
      name: r.name,
      specFormat: r.spec_format,
      specs: parseJson(r.specs),
      imports: strings(parseJson(r.imports)),
      exportsCabiRealloc: r.exports_cabi_realloc === 1,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
    };
  }

  putComponent(c: { hash: string; name: string; specFormat: number; specs: unknown; imports: string[]; exportsCabiRealloc: boolean }): void {
    const t = this.now();
    this.db
      .query(
        `INSERT INTO wasm_components (hash, name, spec_format, specs, imports, exports_cabi_realloc, created_at, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (hash) DO UPDATE SET name = excluded.name, spec_format = excluded.spec_format, specs = excluded.specs,
           imports = excluded.imports, exports_cabi_realloc = excluded.exports_cabi_realloc, last_used_at = excluded.last_used_at`,
      )
      .run(c.hash, c.name, c.specFormat, JSON.stringify(c.specs), JSON.stringify(c.imports), c.exportsCabiRealloc ? 1 : 0, t, t);
  }

  countComponents(): number {
    return this.db.query<{ n: number }, []>('SELECT count(*) AS n FROM wasm_components').get()?.n ?? 0;
  }

  recordInstall(i: { name: string; version: string | null; hash: string; file: string; capabilities: string[] }): void {
    this.db
      .query(
        `INSERT INTO wasm_installs (name, version, hash, file, capabilities, installed_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET version = excluded.version, hash = excluded.hash, file = excluded.file,
           capabilities = excluded.capabilities, installed_at = excluded.installed_at`,
      )
      .run(i.name, i.version, i.hash, i.file, JSON.stringify(i.capabilities), this.now());
  }

  getInstall(name: string): InstallRow | undefined {
    const r = this.db.query<InstallRecord, [string]>('SELECT * FROM wasm_installs WHERE name = ?').get(name);
    return r ? toInstall(r) : undefined;
  }

  listInstalls(): InstallRow[] {
    return this.db.query<InstallRecord, []>('SELECT * FROM wasm_installs ORDER BY name').all().map(toInstall);
  }

  removeInstall(name: string): boolean {
    return this.db.query('DELETE FROM wasm_installs WHERE name = ?').run(name).changes > 0;
  }
}

function toInstall(r: InstallRecord): InstallRow {
  return {
    name: r.name,
    version: r.version,
    hash: r.hash,
    file: r.file,
    capabilities: strings(parseJson(r.capabilities)),
    installedAt: r.installed_at,
  };
}
