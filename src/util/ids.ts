/** Session and record ids. */

/** Session and record ids: UUIDv4, like Claude Code's session ids (Web Crypto: no node:crypto module to load at start-up). */
export function newId(): string {
  return crypto.randomUUID();
}
