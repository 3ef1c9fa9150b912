/**
 * The environment a sandboxed process gets: the parent's, minus provider
 * credentials, the `[sandbox] scrub_env` patterns, and the variables that make
 * bash run a file before the command (BASH_ENV, ENV).
 */
import { escapeRegExp } from '../../util/index.ts';

/** `[sandbox] scrub_env` when the config does not set it. */
export const DEFAULT_SCRUB_ENV: readonly string[] = ['*_API_KEY', '*_TOKEN', '*_SECRET', '*_SECRET_KEY', 'AWS_*'];

/** Removed whatever scrub_env says: the credentials moat itself, or another coding agent, talks to a provider with. */
export const ALWAYS_SCRUBBED: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'AWS_BEARER_TOKEN_BEDROCK',
  'BASH_ENV',
  'ENV',
];

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map(escapeRegExp).join('.*')}$`);
}

/** Whether the variable `name` is removed under `patterns` (exact names or `*` globs; case-sensitive, as the environment is). */
export function isScrubbed(name: string, patterns: readonly string[]): boolean {
  if (ALWAYS_SCRUBBED.includes(name)) return true;
  return patterns.some((p) => (p.includes('*') ? globToRegExp(p).test(name) : p === name));
}

export function scrubEnv(env: Readonly<Record<string, string | undefined>>, patterns: readonly string[] = DEFAULT_SCRUB_ENV): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isScrubbed(name, patterns)) continue;
    out[name] = value;
  }
  return out;
}
