/** Every WebAssembly tool moat offers: bundled, then drop-in, watched. */
import { existsSync, readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { errorMessage } from '../../util/index.ts';
import type { ToolSource } from '../registry.ts';
import type { AnyTool } from '../types.ts';
import type { BundledComponent } from './bundled.ts';
import { NO_MANIFEST, parseManifest, type ToolManifest } from './manifest.ts';
import { registerComponent, type RegisterContext, type Registered } from './register.ts';
import type { ToolOrigin } from './wasm-tool.ts';

/**
 * Every WebAssembly tool moat offers: the bundled ones, then the drop-in
 * folders (`~/.config/moat/tools/`, then the project's `.moat/tools/`). The
 * folders are watched: adding, replacing or deleting a `.wasm` (or its
 * `.toml`) is picked up without a restart, and the registry sees the new
 * list on its next lookup. A component that cannot be registered costs one
 * warning line, never the session.
 */

export interface ToolFolder {
  dir: string;
  origin: Exclude<ToolOrigin, 'bundled'>;
}

export interface CatalogOptions extends RegisterContext {
  folders: readonly ToolFolder[];
  bundled?: () => Promise<BundledComponent[]>;
  /** Names the core tools already use: a WASM tool cannot shadow them. */
  reserved?: () => ReadonlySet<string>;
  warn?: (line: string) => void;
  /** How long to wait after a change before rescanning (editors write in bursts). */
  debounceMs?: number;
}

/** One component in the catalog, registered or not. */
export interface CatalogEntry {
  name: string;
  origin: ToolOrigin;
  file?: string;
  registered?: Registered;
  manifest: ToolManifest;
  /** Why it is not offered (refused, unreadable help, a name clash). */
  error?: string;
}

interface FileEntry extends CatalogEntry {
  /** mtime and size of the .wasm and its manifest: unchanged means no reload. */
  stamp: string;
}

const ORIGIN_ORDER: Record<ToolOrigin, number> = { bundled: 0, user: 1, project: 2 };

function stampOf(wasm: string, toml: string): string {
  const s = statSync(wasm);
  const m = existsSync(toml) ? statSync(toml) : undefined;
  return `${s.mtimeMs}:${s.size}:${m ? `${m.mtimeMs}:${m.size}` : '-'}`;
}

export class WasmCatalog implements ToolSource {
  private readonly opts: CatalogOptions;
  private bundledEntries: CatalogEntry[] = [];
  private readonly files = new Map<string, FileEntry>();
  private current: AnyTool[] = [];
  private listing: CatalogEntry[] = [];
  private running: Promise<void> | undefined;
  private again = false;
  private readonly watchers: FSWatcher[] = [];
  private poll: ReturnType<typeof setInterval> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly warned = new Set<string>();

  constructor(opts: CatalogOptions) {
    this.opts = opts;
  }

  tools(): readonly AnyTool[] {
    return this.current;
  }

  /** Every component with its state, bundled first (for `moat tool list`). */
  entries(): readonly CatalogEntry[] {
    return this.listing;
  }

  /** Registers the bundled tools and scans the folders once. */
  async load(): Promise<void> {
    const bundled = (await this.opts.bundled?.()) ?? [];
    this.bundledEntries = await Promise.all(
      bundled.map(async (b): Promise<CatalogEntry> => {
        let manifest: ToolManifest = NO_MANIFEST;
        try {
          if (b.manifest !== undefined) manifest = b.manifest;
          else if (b.manifestText !== undefined) manifest = parseManifest(b.manifestText, b.manifestFile);
          return { name: b.name, origin: 'bundled', manifest, registered: await registerComponent({ name: b.name, origin: 'bundled', manifest, bundled: b }, this.opts) };
        } catch (e) {
          return { name: b.name, origin: 'bundled', manifest, error: errorMessage(e) };
        }
      }),
    );
    await this.rescan();
  }

  /** Rescans the folders; concurrent calls coalesce into one more scan after the running one. */
  rescan(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.scanOnce();
      } while (this.again);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  private async scanOnce(): Promise<void> {
    const seen = new Set<string>();
    for (const folder of this.opts.folders) {
      let names: string[];
      try {
        names = readdirSync(folder.dir).filter((n) => n.endsWith('.wasm')).sort();
      } catch {
        continue; // no folder, no tools
      }
      for (const file of names) {
        const path = join(folder.dir, file);
        const toml = path.replace(/\.wasm$/, '.toml');
        let stamp: string;
        try {
          stamp = stampOf(path, toml);
        } catch {
          continue; // deleted while we looked
        }
        seen.add(path);
        const old = this.files.get(path);
        if (old?.stamp === stamp) continue;
        this.files.set(path, { ...(await this.registerFile(path, toml, folder.origin)), stamp });
      }
    }
    for (const path of [...this.files.keys()]) if (!seen.has(path)) this.files.delete(path);
    this.publish();
  }

  private async registerFile(path: string, toml: string, origin: ToolFolder['origin']): Promise<CatalogEntry> {
    const name = basename(path, '.wasm');
    let manifest: ToolManifest = NO_MANIFEST;
    try {
      if (existsSync(toml)) manifest = parseManifest(readFileSync(toml, 'utf8'), toml);
      const bytes = new Uint8Array(readFileSync(path));
      return { name, origin, file: path, manifest, registered: await registerComponent({ name, origin, manifest, bytes }, this.opts) };
    } catch (e) {
      return { name, origin, file: path, manifest, error: errorMessage(e) };
    }
  }

  /** Recomputes the offered list: bundled, then user, then project; the first of a name wins. */
  private publish(): void {
    // Case-insensitive: a drop-in `bash` beside the built-in `Bash` would confuse the model and the permission rules.
    const reserved = new Set([...(this.opts.reserved?.() ?? [])].map((n) => n.toLowerCase()));
    const dropIns = [...this.files.values()].sort((a, b) => ORIGIN_ORDER[a.origin] - ORIGIN_ORDER[b.origin] || (a.file ?? '').localeCompare(b.file ?? ''));
    const owner = new Map<string, CatalogEntry>();
    const tools: AnyTool[] = [];
    const listing: CatalogEntry[] = [];
    for (const entry of [...this.bundledEntries, ...dropIns]) {
      const reg = entry.registered;
      let error = entry.error;
      if (reg !== undefined && error === undefined) {
        const clash = reg.tools.map((t) => t.name).find((n) => reserved.has(n.toLowerCase()) || owner.has(n.toLowerCase()));
        if (clash !== undefined) {
          const other = owner.get(clash.toLowerCase());
          error = `${entry.name} is not offered: its tool ${clash} has the name of ${other ? `the ${other.origin} tool ${other.name}` : 'a built-in tool'}`;
        } else {
          for (const t of reg.tools) {
            owner.set(t.name.toLowerCase(), entry);
            tools.push(t);
          }
          for (const w of reg.warnings) this.warnOnce(`${entry.origin}:${reg.hash}:${w}`, w);
        }
      }
      if (error !== undefined) this.warnOnce(`${entry.file ?? entry.name}:${error}`, error);
      listing.push(error === undefined ? entry : { ...entry, error });
    }
    this.current = tools;
    this.listing = listing;
  }

  private warnOnce(key: string, line: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.opts.warn?.(line);
  }

  /** Watches the folders (and waits for missing ones to appear). Call close() when done. */
  watch(): void {
    const schedule = (): void => {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.rescan();
      }, this.opts.debounceMs ?? 50);
    };
    const pending = new Set(this.opts.folders.map((f) => f.dir));
    const attach = (): void => {
      for (const dir of [...pending]) {
        if (!existsSync(dir)) continue;
        try {
          const w = watch(dir, schedule);
          w.on('error', () => undefined);
          this.watchers.push(w);
          pending.delete(dir);
          schedule(); // files may have arrived with the folder
        } catch {
          // not watchable (yet): try again on the next poll
        }
      }
      if (pending.size === 0 && this.poll !== undefined) {
        clearInterval(this.poll);
        this.poll = undefined;
      }
    };
    attach();
    if (pending.size > 0) {
      // A folder that does not exist yet (no .moat/tools until someone makes one): look again now and then.
      this.poll = setInterval(attach, 300);
      this.poll.unref();
    }
  }

  close(): void {
    for (const w of this.watchers.splice(0)) w.close();
    if (this.poll !== undefined) clearInterval(this.poll);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.poll = undefined;
    this.timer = undefined;
  }
}
