/**
 * The one live cell, clamped so that it plus the bottom area stays shorter
 * than the terminal. It re-renders on every flush of streamed text; nothing
 * above it does.
 */
import { Text, useWindowSize } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { AppModel } from '../app-model.ts';
import { bottomHeight, liveLines, SAFETY_ROWS } from './layout.ts';
import { useDerived, useStore } from './use-store.ts';

export function LiveArea({ app }: { app: AppModel }) {
  const { columns, rows } = useWindowSize();
  const t = app.transcript;
  const live = useStore(t.live);
  const agents = useStore(t.agents.agents);
  const bottom = useDerived([app.ui, app.elicitations.screen, t.permissions, t.todos, t.run, t.live], () => bottomHeight(app, columns, rows));
  // A running tool or sub-agent shows its elapsed time: tick once a second while one runs.
  const running = live.tools.some((x) => x.status === 'running') || agents.some((a) => a.status === 'running');
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const maxRows = rows - bottom - SAFETY_ROWS;
  const lines = liveLines(app, columns, maxRows, Date.now());
  // Between two moves into scrollback the cell only grows, so the lines below it stay put and Ink
  // rewrites only what changed. A move into scrollback redraws the whole frame anyway (Ink), so that
  // is when the cell shrinks back to its content.
  const high = useRef(0);
  const seen = useRef(t.committed.get());
  const quiet = !live.text && !live.thinking && live.tools.length === 0;
  if (seen.current !== t.committed.get()) {
    seen.current = t.committed.get();
    high.current = 0;
  }
  high.current = quiet ? 0 : Math.min(maxRows, Math.max(high.current, lines.length));
  while (lines.length < high.current) lines.push('');
  if (lines.length === 0) return null;
  return <Text>{lines.join('\n')}</Text>;
}
