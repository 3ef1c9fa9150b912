/**
 * The finished transcript, printed once into native scrollback by Ink's
 * `<Static>`. It subscribes only to the committed list, never to live text:
 * a re-render of `<Static>` forces an unthrottled full render (spike §2).
 */
import { Static, Text, useWindowSize } from 'ink';
import { useEffect } from 'react';
import type { AppModel } from '../app-model.ts';
import { describeChord } from '../keymap.ts';
import { renderItem } from '../render/items.ts';
import { useStore } from './use-store.ts';

/**
 * Once this many printed items pile up, they are dropped (Ink has already
 * written them and keeps no copy), so a long session does not grow memory.
 */
export const DROP_PRINTED_AFTER = 100;

export function StaticLog({ app }: { app: AppModel }) {
  const committed = useStore(app.transcript.committed);
  const { columns } = useWindowSize();
  const cwd = app.ui.get().info.cwd;
  const hint = `${describeChord(app.keymap.expand[0] ?? 'ctrl+o').toLowerCase()} to expand`;
  useEffect(() => {
    // Runs after Ink wrote this commit's static output (a dirty <Static> renders immediately on commit).
    if (committed.items.length >= DROP_PRINTED_AFTER) app.transcript.dropPrinted(committed.items.length);
  }, [app, committed]);
  return (
    <Static key={committed.epoch} items={committed.items}>
      {(item) => <Text key={item.id}>{renderItem(item, { width: columns, cwd, now: Date.now() }, hint).join('\n')}</Text>}
    </Static>
  );
}
