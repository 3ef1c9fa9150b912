/**
 * The interactive UI: the finished transcript in `<Static>`, one live cell,
 * and the bottom area. This component subscribes to nothing itself, so
 * streamed text never re-renders the `<Static>` list.
 */
import { Box, useInput, usePaste } from 'ink';
import type { AppModel } from './app-model.ts';
import { BottomArea } from './components/bottom-area.tsx';
import { ErrorBoundary } from './components/error-boundary.tsx';
import { LiveArea } from './components/live-area.tsx';
import { StaticLog } from './components/static-log.tsx';
import { handleKey, handlePaste } from './input/key-router.ts';

export function App({ app, onError }: { app: AppModel; onError(error: Error): void }) {
  useInput((input, key) => handleKey(app, input, key));
  usePaste((text) => handlePaste(app, text));
  return (
    <ErrorBoundary onError={onError}>
      <Box flexDirection="column">
        <StaticLog app={app} />
        <LiveArea app={app} />
        <BottomArea app={app} />
      </Box>
    </ErrorBoundary>
  );
}
