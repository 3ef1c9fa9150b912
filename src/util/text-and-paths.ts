/** Two small helpers many modules need: a regex-safe literal, and a path's real location when it has one. */
import { realpathSync } from 'node:fs';

/** `text` as a regular expression that matches exactly it. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The real path (symlinks resolved) of something that exists; the path as given otherwise. */
export function realPathOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
