/**
 * The one live cell, clamped so that it plus the bottom area stays shorter
 * than the terminal. It re-renders on every flush of streamed text; nothing
 * above it does.
 */
import { Text, useWindowSize } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { AppModel } from '../app-model.ts';
import { bottomLines, liveLines, SAFETY_ROWS } from './layout.ts';
import { useDerived, useStore } from './use-store.ts';

export function LiveArea({ app }: { app: AppModel }) {
  const { columns, rows } = useWindowSize();
  const t = app.transcript;
  const live = useStore(t.live);
  const bottom = useDerived([app.ui, t.permissions, t.todos, t.run, t.usage, t.live], () => bottomLines(app, columns, rows, 0, 0).length);
  // A running tool shows its elapsed time: tick once a second while one runs.
  const running = live.tools.some((x) => x.status === 'running');
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const maxRows = rows - bottom - SAFETY_ROWS;
  const lines = liveLines(app, columns, maxRows, Date.now());
  // While a message streams the cell only grows: when finished lines move to scrollback it keeps its
  // height, so the prompt and status below stay put and Ink redraws only the lines that changed.
  const high = useRef(0);
  const quiet = !live.text && !live.thinking && live.tools.length === 0;
  high.current = quiet ? 0 : Math.min(maxRows, Math.max(high.current, lines.length));
  while (lines.length < high.current) lines.push('');
  if (lines.length === 0) return null;
  return <Text>{lines.join('\n')}</Text>;
}
