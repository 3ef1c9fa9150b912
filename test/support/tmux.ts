/**
 * Drives a program in a real terminal: a private tmux server (its own socket
 * file, no user config), a fixed pane size, keys sent as a user would, and
 * the screen read back with capture-pane. Waits poll with a timeout; nothing
 * sleeps a fixed time.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function tmux(sock: string, args: string[]): string {
  const r = Bun.spawnSync(['tmux', '-S', sock, '-f', '/dev/null', ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`tmux ${args[0]}: ${r.stderr.toString().trim()}`);
  return r.stdout.toString();
}

export interface TmuxOptions {
  cols?: number;
  rows?: number;
  env?: Record<string, string>;
  cwd?: string;
}

export class TmuxSession {
  readonly sock = join(tmpdir(), `moat-tmux-${process.pid}-${Math.random().toString(36).slice(2, 10)}.sock`);
  private alive = true;

  /** `command` runs through sh in the pane; the pane stays after it exits so its end state can be read. */
  constructor(command: string, opts: TmuxOptions = {}) {
    const env = { TERM: 'xterm-256color', ...opts.env };
    tmux(this.sock, [
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(opts.cols ?? 100),
      '-y',
      String(opts.rows ?? 30),
      ...(opts.cwd ? ['-c', opts.cwd] : []),
      ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      command,
    ]);
    tmux(this.sock, ['set-option', '-t', 'main', 'remain-on-exit', 'on']);
    tmux(this.sock, ['set-option', '-t', 'main', 'history-limit', '200000']);
  }

  /** Named keys as tmux knows them: Enter, Escape, C-c, BTab, Up … */
  keys(...keys: string[]): void {
    tmux(this.sock, ['send-keys', '-t', 'main', ...keys]);
  }

  /** Literal text. */
  type(text: string): void {
    tmux(this.sock, ['send-keys', '-t', 'main', '-l', text]);
  }

  /** Types and waits until the text is on screen, so a following Enter arrives as its own key (spike §3). */
  async typeAndWait(text: string, timeoutMs = 5000): Promise<void> {
    this.type(text);
    await this.waitFor(text, { timeoutMs });
  }

  /**
   * Types a prompt and submits it. An Enter that reaches the UI in the same
   * read as the last typed keys is sometimes taken as part of them; a second
   * Enter is sent if `until` has not shown up.
   */
  async submit(text: string, until: string | RegExp, timeoutMs = 20_000): Promise<void> {
    await this.typeAndWait(text);
    this.keys('Enter');
    try {
      await this.waitFor(until, { timeoutMs: 3000 });
    } catch {
      this.keys('Enter');
      await this.waitFor(until, { timeoutMs });
    }
  }

  /** The visible screen, or with `history` the whole scrollback too (lines joined as wrapped by the terminal). */
  screen(opts: { history?: boolean; escapes?: boolean } = {}): string {
    const args = ['capture-pane', '-p', '-t', 'main'];
    if (opts.history) args.push('-S', '-', '-E', '-', '-J');
    if (opts.escapes) args.push('-e');
    return tmux(this.sock, args);
  }

  /** A tmux format value for the pane: #{pane_dead}, #{pane_dead_status}, #{cursor_flag} … */
  info(format: string): string {
    return tmux(this.sock, ['display-message', '-p', '-t', 'main', format]).trim();
  }

  resize(cols: number, rows: number): void {
    tmux(this.sock, ['resize-window', '-t', 'main', '-x', String(cols), '-y', String(rows)]);
  }

  async waitFor(what: string | RegExp | (() => boolean), opts: { timeoutMs?: number; history?: boolean } = {}): Promise<string> {
    const end = performance.now() + (opts.timeoutMs ?? 5000);
    let last = '';
    for (;;) {
      if (typeof what === 'function') {
        if (what()) return last;
      } else {
        last = this.screen({ history: opts.history ?? false });
        if (typeof what === 'string' ? last.includes(what) : what.test(last)) return last;
      }
      if (performance.now() > end) {
        throw new Error(`timed out waiting for ${String(what)}; screen:\n${last || this.screen()}`);
      }
      await Bun.sleep(20);
    }
  }

  /**
   * Ends the server and waits for the program in the pane to be gone: a moat
   * still shutting down would write its log into a sandbox the test is about
   * to remove. The pane's process group is killed if it lingers.
   */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.alive = false;
    let group: number | undefined;
    try {
      group = Number(this.info('#{pane_pid}')) || undefined;
      tmux(this.sock, ['kill-server']);
    } catch {
      // already gone
    }
    rmSync(this.sock, { force: true });
    if (group === undefined) return;
    const alive = () => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    const end = performance.now() + 3000;
    while (alive() && performance.now() < end) await Bun.sleep(20);
    if (alive()) process.kill(-group, 'SIGKILL');
  }
}
