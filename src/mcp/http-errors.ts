// What an error from a remote server's transport says: its HTTP status, and whether it asks for a login.
import { sdkIfLoaded } from './sdk.ts';

export function httpStatus(e: unknown): number | undefined {
  const sdk = sdkIfLoaded();
  if (sdk !== undefined && (e instanceof sdk.StreamableHTTPError || e instanceof sdk.SseError)) return e.code;
  return undefined;
}

/** The server wants a (new) login: no token, an expired one that did not refresh, or more scope than the token has. */
export function needsLogin(e: unknown): boolean {
  const sdk = sdkIfLoaded();
  return (sdk !== undefined && e instanceof sdk.UnauthorizedError) || httpStatus(e) === 401;
}
