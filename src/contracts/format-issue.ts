/**
 * One line for a zod issue, the same everywhere input is validated: the key
 * path as the user wrote it (`servers.web.url`, `paths[0]`), then zod's
 * message. Callers that know a file add its name and line in front.
 */

/** The parts of a zod issue read here (structural, so this leaf needs no zod). */
export interface IssueLike {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  /** `unrecognized_keys`: the unknown keys, which zod reports at their parent's path. */
  readonly keys?: readonly string[];
}

/** The issue's key path; an unknown key's own name is appended, so it points at the key itself. */
export function issuePath(issue: IssueLike): (string | number)[] {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  const unknown = issue.code === 'unrecognized_keys' ? issue.keys?.[0] : undefined;
  return unknown === undefined ? path : [...path, unknown];
}

/** `permissions.allow[1]`, quoting keys that are not bare TOML keys. */
export function formatKeyPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else {
      const key = /^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p);
      out += out === '' ? key : `.${key}`;
    }
  }
  return out;
}

/** zod's message, except for an unknown key: the key path already names it. */
export function issueMessage(issue: IssueLike): string {
  return issue.code === 'unrecognized_keys' ? 'unknown key' : issue.message;
}

/** `key.path: message`, or the message alone for the input as a whole; `fallback` when there is no issue. */
export function formatIssue(issue: IssueLike | undefined, fallback = 'invalid'): string {
  if (issue === undefined) return fallback;
  const path = formatKeyPath(issuePath(issue));
  return path === '' ? issueMessage(issue) : `${path}: ${issueMessage(issue)}`;
}
