/**
 * The half of the loop that runs tool calls (dispatch, the permission gate,
 * rule suggestions), loaded with the first call, not before the first
 * request: a run starts loading it once that request is on its way.
 */
export type { DispatchDeps } from './tool-dispatch.ts';

let loading: Promise<typeof import('./tool-dispatch.ts')> | undefined;

export const loadToolDispatch = (): Promise<typeof import('./tool-dispatch.ts')> => (loading ??= import('./tool-dispatch.ts'));

/** Starts the load; a failure is met again, and reported, by the first tool call. */
export function preloadToolDispatch(): void {
  loadToolDispatch().catch(() => undefined);
}
