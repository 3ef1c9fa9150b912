/**
 * Start-up's one seam: the half of the loop that runs tool calls (dispatch,
 * the permission gate and engine, rule suggestions) is one `import()`, which a
 * run starts once its first request is answering (afterFirstEvent), so none
 * of it is evaluated before that request.
 */
export type { DispatchDeps } from './tool-dispatch.ts';

let loading: Promise<typeof import('./tool-dispatch.ts')> | undefined;

export const loadToolDispatch = (): Promise<typeof import('./tool-dispatch.ts')> => (loading ??= import('./tool-dispatch.ts'));

/** Starts the load; a failure is met again, and reported, by the first tool call. */
export function preloadToolDispatch(): void {
  loadToolDispatch().catch(() => undefined);
}
