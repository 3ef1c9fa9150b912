/**
 * What every end-to-end file of the TUI sets up: the compiled binary must
 * exist, one fake model server serves the file's tests, and every tmux pane a
 * test opened is killed after it (after `beforeKill`, for what a pane's
 * program needs first, such as a stopped process continued).
 */
import { afterAll, afterEach, beforeAll } from 'bun:test';
import { existsSync } from 'node:fs';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts';
import type { TmuxSession } from './tmux.ts';

export interface TuiSuite {
  /** The file's fake Anthropic server (started before its first test). */
  readonly server: FakeAnthropic;
  /** Registers a pane to kill after the test; returns it. */
  track(session: TmuxSession): TmuxSession;
}

export function tuiSuite(bin: string, beforeKill: () => void = () => {}): TuiSuite {
  let server: FakeAnthropic | undefined;
  let sessions: TmuxSession[] = [];
  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run bun run build first`);
    server = await startFakeAnthropic();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    beforeKill();
    for (const s of sessions) await s.kill();
    sessions = [];
  });
  return {
    get server(): FakeAnthropic {
      if (server === undefined) throw new Error('the fake model server starts in beforeAll');
      return server;
    },
    track(session) {
      sessions.push(session);
      return session;
    },
  };
}
