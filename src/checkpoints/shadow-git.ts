/** moat's own git for checkpoints: a shadow repository beside the project, run so that nothing in the project can make it run code. */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MoatError, errorMessage } from '../util/index.ts';

/**
 * Settings every shadow git call runs with. A project is data, never code:
 * no fsmonitor or hook program, no filter/diff/merge driver (those live in
 * config, and no config but ours is read), no line-ending conversion, so the
 * bytes stored are the bytes on disk.
 */
const HARDENED = [
  '-c', 'core.fsmonitor=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.autocrlf=false',
  '-c', 'core.safecrlf=false',
  '-c', 'core.symlinks=true',
  '-c', 'core.quotePath=false',
  '-c', 'core.excludesFile=/dev/null',
  '-c', 'core.untrackedCache=false',
  '-c', 'gc.auto=0',
  '-c', 'maintenance.auto=false',
  '-c', 'commit.gpgSign=false',
  '-c', 'advice.addEmbeddedRepo=false',
];

/**
 * `$GIT_DIR/info/attributes` wins over every `.gitattributes` in the tree:
 * it unsets what could change bytes on the way in or out (text and eol
 * conversion, filters, ident, working-tree encodings).
 */
const ATTRIBUTES = '* -text !eol -filter -ident !working-tree-encoding\n';

/** Whether a lock file's holder is gone: its process no longer runs, or the lock is over a minute old. */
function holderGone(lock: string): boolean {
  try {
    if (Date.now() - statSync(lock).mtimeMs > 60_000) return true;
    const pid = Number(readFileSync(lock, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written right now
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as { code?: string }).code === 'ESRCH';
  }
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** One shadow repository: its git folder, the project it records and the index file it stages in. */
export class ShadowGit {
  readonly indexFile: string;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {
    this.indexFile = join(gitDir, 'moat-index');
  }

  /** The end of this process's queue for the lock. */
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * The environment of a shadow git call: the caller's GIT_* variables
   * dropped (a GIT_DIR or GIT_CONFIG_* of the user's must not steer it),
   * global and system config off, a fixed identity and dates from the clock.
   */
  private env(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GIT_')) env[k] = v;
    return {
      ...env,
      GIT_DIR: this.gitDir,
      GIT_WORK_TREE: this.workTree,
      GIT_INDEX_FILE: this.indexFile,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_ATTR_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_AUTHOR_NAME: 'moat',
      GIT_AUTHOR_EMAIL: 'moat@localhost',
      GIT_COMMITTER_NAME: 'moat',
      GIT_COMMITTER_EMAIL: 'moat@localhost',
      LC_ALL: 'C',
      // glibc hands memory back to the kernel after each file's zlib buffers and asks again for the next: on a 10,000-file stage that was half of 14 s spent in brk.
      GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=268435456',
    };
  }

  /** Runs git; a non-zero exit is returned, not thrown (`run` throws). */
  async exec(args: readonly string[], input?: string | Uint8Array): Promise<GitResult> {
    const proc = Bun.spawn(['git', ...HARDENED, ...args], {
      cwd: this.workTree,
      env: this.env(),
      stdin: input === undefined ? 'ignore' : 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    if (input !== undefined && proc.stdin) {
      void proc.stdin.write(input);
      void proc.stdin.end();
    }
    const [out, err, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), new Response(proc.stderr).text(), proc.exited]);
    return { stdout: Buffer.from(out), stderr: err, code };
  }

  /** Runs git and returns its stdout; a failure is a MoatError with git's first line. */
  async run(args: readonly string[], input?: string | Uint8Array): Promise<string> {
    const r = await this.exec(args, input);
    if (r.code !== 0) {
      const line = r.stderr.trim().split('\n')[0] ?? '';
      throw new MoatError('internal', `checkpoint git ${args[0] ?? ''} failed: ${line || `exit ${r.code}`}`);
    }
    return r.stdout.toString('utf8');
  }

  /**
   * Creates the shadow repository when it is not there, and checks one that
   * is. A folder that is there but is not a usable repository is an error
   * (the caller says so in one line and goes on without checkpoints).
   */
  async ensure(): Promise<void> {
    const head = join(this.gitDir, 'HEAD');
    if (!existsSync(head)) {
      mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
      await this.run(['init', '--quiet']);
    }
    const info = join(this.gitDir, 'info');
    mkdirSync(info, { recursive: true });
    const attributes = join(info, 'attributes');
    if (!existsSync(attributes) || readFileSync(attributes, 'utf8') !== ATTRIBUTES) writeFileSync(attributes, ATTRIBUTES);
    const check = await this.exec(['rev-parse', '--git-dir']);
    if (check.code !== 0 || !statSync(join(this.gitDir, 'objects')).isDirectory()) {
      throw new MoatError('internal', `the checkpoint repository ${this.gitDir} is damaged: ${check.stderr.trim().split('\n')[0] ?? ''}`);
    }
  }

  /**
   * Runs `fn` holding the repository's lock: two sessions in one project
   * share its index, and git's own index.lock would fail the second one
   * instead of making it wait. A lock whose process is gone (killed) or
   * older than a minute is taken over.
   */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    // Callers in this process queue for their turn (a checkpoint waiting for the one taken ahead goes on as soon as
    // that one is done, not at the file lock's next 20 ms poll); the file lock is for other processes.
    const mine = this.queue.then(() => this.fileLocked(fn));
    this.queue = mine.catch(() => undefined);
    return mine;
  }

  private async fileLocked<T>(fn: () => Promise<T>): Promise<T> {
    const lock = join(this.gitDir, 'moat.lock');
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        const fd = openSync(lock, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        break;
      } catch (e) {
        if (holderGone(lock)) rmSync(lock, { force: true });
        else if (Date.now() > deadline) throw new MoatError('internal', `the checkpoint repository is busy (${errorMessage(e)})`);
        else await Bun.sleep(20);
      }
    }
    try {
      return await fn();
    } finally {
      rmSync(lock, { force: true });
    }
  }
}
