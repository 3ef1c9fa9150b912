/** Knows, without reading the tree, that a project's files did not change since the last checkpoint: one inotify watch per folder, and a barrier. */
import { type FSWatcher, mkdirSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LeftOut } from './snapshot.ts';

/** Past this many folders the watch is not set up: checkpoints read the tree each time, as git does. */
const MAX_FOLDERS = 20_000;
/** How long the barrier waits for its own event before the answer is "do not know". */
const BARRIER_MS = 500;

/**
 * Why a watch and not a stat walk: on a 10,000-file project one lstat per
 * file is already more than the time a checkpoint may take (scripts/bench/
 * checkpoint.ts measures both). A change anywhere in a watched folder — a
 * file written, created, removed, renamed, its mode changed — marks the
 * project dirty, and the next checkpoint reads the tree with git.
 *
 * Trusted only on Linux, where one inotify queue carries every folder's
 * events in the order they happened: `unchanged` writes a file of its own
 * in the shadow repository's folder and waits for that file's event, so
 * every change made before the question has been seen by then. Elsewhere
 * (FSEvents batches and reorders) the watch is off and every checkpoint
 * asks git. Writes through a memory map are not reported by the kernel, as
 * with git's own fsmonitor: that is the one change this misses.
 */
export class ChangeWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private sentinel: FSWatcher | undefined;
  private readonly waiting = new Map<string, () => void>();
  private dirty = true;
  /** A name came or went, or a `.gitignore` changed: the folders to watch are to be listed again. */
  private rescan = true;
  private broken = false;
  private seq = 0;
  /** Paths (relative, folders ending in `/`) `.gitignore` excludes: changes there do not count. */
  private ignored = new Set<string>();
  private readonly watchRoot: string;
  private readonly sentinelDir: string;
  /** The tree the last checkpoint recorded, what it left out and when, while nothing changed since. */
  recorded: { tree: string; leftOut: LeftOut[]; at: number } | undefined;

  constructor(
    private readonly root: string,
    stateDir: string,
  ) {
    // One folder per watch: another moat (or another watch in this one) in the same project has its own barrier.
    this.watchRoot = join(stateDir, 'watch');
    // Web Crypto, not node:crypto: that module loads Node's streams, ~10 ms of CPU before -p's first request (scripts/bench/startup.ts).
    this.sentinelDir = join(this.watchRoot, `${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
    if (process.platform !== 'linux') this.broken = true;
  }

  /** Whether the watch can be trusted at all here (Linux, no error so far). */
  get usable(): boolean {
    return !this.broken;
  }

  private fail(): void {
    this.broken = true;
    this.close();
  }

  private onEvent(dir: string, event: string, name: string | null): void {
    if (name === null) {
      this.dirty = true;
      this.rescan = true;
      return;
    }
    const rel = dir === '' ? name : `${dir}/${name}`;
    if (this.ignored.has(rel) || this.ignored.has(`${rel}/`)) return;
    this.dirty = true;
    if (event === 'rename' || name === '.gitignore') this.rescan = true;
  }

  /** The project's folders that `.gitignore` does not exclude, `.git` folders left out; undefined past the cap. */
  private folders(): string[] | undefined {
    const out: string[] = [];
    const visit = (rel: string): boolean => {
      out.push(rel);
      if (out.length > MAX_FOLDERS) return false;
      let entries;
      try {
        entries = readdirSync(rel === '' ? this.root : join(this.root, rel), { withFileTypes: true });
      } catch {
        return true; // gone or unreadable: git reads what it can, its parent's watch sees it come back
      }
      for (const e of entries) {
        if (!e.isDirectory() || e.name === '.git') continue;
        const sub = rel === '' ? e.name : `${rel}/${e.name}`;
        if (this.ignored.has(`${sub}/`)) continue;
        if (!visit(sub)) return false;
      }
      return true;
    };
    return visit('') ? out : undefined;
  }

  /**
   * Starts (or moves) the watch from now on: the caller reads the tree
   * after this, so any change from here on is either in what it reads or
   * marks the next checkpoint dirty. `ignored` lists what git excludes
   * (folders end in `/`); it is asked only when names came or went since
   * the last time. False when the watch is off.
   */
  async arm(ignored: () => Promise<readonly string[]>): Promise<boolean> {
    if (this.broken) return false;
    this.recorded = undefined;
    if (!this.rescan) {
      // Only files' contents or modes changed: the same folders, the same exclusions.
      this.dirty = false;
      return true;
    }
    this.rescan = false;
    this.dirty = false;
    // Cleared before listing: a name that comes while the folders are listed marks the next round for a rescan.
    this.ignored = new Set(await ignored());
    const dirs = this.folders();
    if (dirs === undefined) {
      this.fail();
      return false;
    }
    try {
      if (!this.sentinel) {
        this.removeStale();
        mkdirSync(this.sentinelDir, { recursive: true });
        this.sentinel = watch(this.sentinelDir, { persistent: false }, (_event, name) => {
          if (name !== null) this.waiting.get(name)?.();
        });
      }
      const keep = new Set(dirs);
      for (const [dir, w] of this.watchers) {
        if (!keep.has(dir)) {
          w.close();
          this.watchers.delete(dir);
        }
      }
      for (const dir of dirs) {
        if (this.watchers.has(dir)) continue;
        const w = watch(dir === '' ? this.root : join(this.root, dir), { persistent: false }, (event, name) => this.onEvent(dir, event, name));
        w.on('error', () => this.fail());
        this.watchers.set(dir, w);
      }
    } catch {
      // Out of inotify watches, or a folder went away while being watched: git reads the tree every time.
      this.fail();
      return false;
    }
    return true;
  }

  /** Writes a file of its own in the barrier folder and waits for its event; false when it does not come. */
  private async barrier(): Promise<boolean> {
    const name = `${process.pid}-${++this.seq}`;
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_MS);
      this.waiting.set(name, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      writeFileSync(join(this.sentinelDir, name), '');
    } catch {
      this.waiting.delete(name);
      return false;
    }
    const ok = await seen;
    this.waiting.delete(name);
    rmSync(join(this.sentinelDir, name), { force: true });
    return ok;
  }

  /**
   * Whether nothing in the project changed since `arm`: false when unsure.
   * Two barriers, one after the other: Bun reads inotify events in batches
   * and may hand one batch's events to their watchers in any order, so the
   * first barrier's event can come before a change made just before it
   * (measured: 1 in 40). The second barrier is written after the first's
   * batch was read, so it comes in a later batch, after every event of the
   * first — the change's among them.
   */
  async unchanged(): Promise<boolean> {
    if (this.broken || this.dirty || this.recorded === undefined) return false;
    const ok = (await this.barrier()) && (await this.barrier());
    return ok && !this.dirty && !this.broken;
  }

  /** Barrier folders of processes that are gone (killed before their exit hook). */
  private removeStale(): void {
    let names: string[] = [];
    try {
      names = readdirSync(this.watchRoot);
    } catch {
      return;
    }
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
      try {
        process.kill(pid, 0);
      } catch (e) {
        if ((e as { code?: string }).code === 'ESRCH') rmSync(join(this.watchRoot, name), { recursive: true, force: true });
      }
    }
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.sentinel) {
      this.sentinel.close();
      rmSync(this.sentinelDir, { recursive: true, force: true });
    }
    this.sentinel = undefined;
    this.recorded = undefined;
  }
}
