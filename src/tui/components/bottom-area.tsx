/**
 * Spinner, prompt (or the permission dialog / a picker), completion menu and
 * status line.
 */
import { Text, useWindowSize } from 'ink';
import { useEffect, useState } from 'react';
import type { AppModel } from '../app-model.ts';
import { bottomLines } from './layout.ts';
import { useDerived, useStore } from './use-store.ts';

const FRAME_MS = 200;

export function BottomArea({ app }: { app: AppModel }) {
  const { columns, rows } = useWindowSize();
  const t = app.transcript;
  const ui = useStore(app.ui);
  // Streamed-character counts change every flush; the spinner shows them on its own tick only.
  const phase = useDerived([t.run], () => {
    const r = t.run.get();
    return `${r.phase}|${r.aborting}|${r.retry?.attempt ?? ''}`;
  });
  useStore(t.permissions);
  useStore(t.todos);
  useStore(t.usage);
  const [frame, setFrame] = useState(0);
  const busy = !phase.startsWith('idle');
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => setFrame((n) => n + 1), FRAME_MS);
    return () => clearInterval(timer);
  }, [busy]);
  // The "press Ctrl-C again" hint must disappear on its own.
  const armed = ui.exitArmedUntil - Date.now();
  useEffect(() => {
    if (armed <= 0) return;
    const timer = setTimeout(() => setFrame((n) => n + 1), armed + 10);
    return () => clearTimeout(timer);
  }, [armed]);
  return <Text>{bottomLines(app, columns, rows, Date.now(), frame).join('\n')}</Text>;
}
