/**
 * Typed errors with a stable `code`, thrown at module edges. `cli/` maps them to
 * exit codes once; a `MoatError` with `user: true` is printed as one line, never
 * as a stack trace.
 */
export type ErrorCode =
  | 'usage'
  | 'config'
  | 'no_api_key'
  | 'api'
  | 'store'
  | 'tool'
  | 'not_found'
  | 'internal';

export class MoatError extends Error {
  readonly code: ErrorCode;
  /** True when the user caused it (bad flag, bad config): print one line, no stack. */
  readonly user: boolean;
  constructor(code: ErrorCode, message: string, opts: { user?: boolean; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'MoatError';
    this.code = code;
    this.user = opts.user ?? (code === 'usage' || code === 'config' || code === 'no_api_key' || code === 'not_found');
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** The `code` of a Node/Bun system error (ENOENT, EACCES, …), if it has one. */
export function errnoCode(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e) {
    const code = (e as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
