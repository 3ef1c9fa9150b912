/** Where moat keeps config, data and caches (XDG). */
import { isAbsolute, join } from 'node:path';
import { homeOf } from '../util/index.ts';

// The home folder is util's (its one definition, shared with the store and the sandbox), here where config's callers look for it.
export { homeOf };

export type Env = Readonly<Record<string, string | undefined>>;

export interface MoatPaths {
  configDir: string;
  dataDir: string;
  cacheDir: string;
  /** `<configDir>/config.toml` */
  userConfigFile: string;
  /** `<dataDir>/moat.db`; the store's defaultDbPath gives the same answer. */
  dbFile: string;
  /** `<dataDir>/tool-results`: tool output too big for the model (and binary parts), one folder per session; the model may Read it. */
  toolResultsDir: string;
}


/** XDG says a relative (or empty) value is invalid and must be ignored. */
function xdg(env: Env, name: string, fallback: string[]): string {
  const v = env[name];
  return v && isAbsolute(v) ? v : join(homeOf(env), ...fallback);
}

/** Where moat keeps things, per the XDG base-directory spec. */
export function moatPaths(env: Env = process.env): MoatPaths {
  const configDir = join(xdg(env, 'XDG_CONFIG_HOME', ['.config']), 'moat');
  const dataDir = join(xdg(env, 'XDG_DATA_HOME', ['.local', 'share']), 'moat');
  const cacheDir = join(xdg(env, 'XDG_CACHE_HOME', ['.cache']), 'moat');
  return {
    configDir,
    dataDir,
    cacheDir,
    userConfigFile: join(configDir, 'config.toml'),
    dbFile: join(dataDir, 'moat.db'),
    toolResultsDir: join(dataDir, 'tool-results'),
  };
}

/** One session's folder under `toolResultsDir`: the id made safe for a file name, so two sessions never share one. */
export function sessionResultsDir(toolResultsDir: string, sessionId: string): string {
  return join(toolResultsDir, sessionId.replace(/[^A-Za-z0-9_-]/g, '_'));
}

/** `~` and `~/x` expand to the home directory; `~user` is left alone. */
export function expandHome(p: string, env: Env): string {
  if (p === '~') return homeOf(env);
  if (p.startsWith('~/')) return join(homeOf(env), p.slice(2));
  return p;
}
