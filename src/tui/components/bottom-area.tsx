/**
 * Spinner, prompt (or the permission dialog / a picker), completion menu and
 * status line.
 */
import { Text, useWindowSize } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { AppModel } from '../app-model.ts';
import type { RunState } from '../state/transcript.ts';
import { bottomLines } from './layout.ts';
import { useStore } from './use-store.ts';

const FRAME_MS = 200;

export function BottomArea({ app }: { app: AppModel }) {
  const { columns, rows } = useWindowSize();
  const t = app.transcript;
  const ui = useStore(app.ui);
  // Re-rendered with every flush of streamed text: that render is drawn anyway, so the spinner advances
  // on it and its own timer only fires when nothing else was drawn for a frame (no extra renders).
  const run = useStore(t.run);
  useStore(t.permissions);
  useStore(app.elicitations.screen);
  useStore(t.todos);
  useStore(t.usage);
  const now = Date.now();
  const frame = Math.floor(now / FRAME_MS);
  // The spinner line changes once per frame, not per flush: each change rewrites it on the terminal.
  const shown = useRef<{ frame: number; run: RunState }>({ frame, run });
  const s = shown.current;
  if (s.frame !== frame || s.run.phase !== run.phase || s.run.aborting !== run.aborting || s.run.retry !== run.retry || s.run.startedAt !== run.startedAt) {
    shown.current = { frame, run };
  }
  const drawnAt = useRef(now);
  drawnAt.current = now;
  const [, setTick] = useState(0);
  const busy = run.phase !== 'idle';
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      if (Date.now() - drawnAt.current >= FRAME_MS - 10) setTick((n) => n + 1);
    }, FRAME_MS);
    return () => clearInterval(timer);
  }, [busy]);
  // The "press Ctrl-C again" hint must disappear on its own.
  const armed = ui.exitArmedUntil - now;
  useEffect(() => {
    if (armed <= 0) return;
    const timer = setTimeout(() => setTick((n) => n + 1), armed + 10);
    return () => clearTimeout(timer);
  }, [armed]);
  return <Text>{bottomLines(app, columns, rows, now, shown.current.frame, shown.current.run).join('\n')}</Text>;
}
