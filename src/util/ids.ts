/** Session and record ids. */
import { randomUUID } from 'node:crypto';

/** Session and record ids: UUIDv4, like Claude Code's session ids. */
export function newId(): string {
  return randomUUID();
}
