/**
 * What runs the command inside the sandbox, after the seccomp loader, and
 * whether util-linux's setpriv must come first. bubblewrap sets no_new_privs
 * for everything it starts and drops every capability of the command itself;
 * the seccomp loader then makes a nested user namespace in which the command
 * runs as the caller's uid. For a caller that is not root that uid holds no
 * capability after exec (the loader clears the ambient set), so nothing is
 * left to drop. For a caller running as root the nested namespace maps the
 * host's uid 0, whose full set there would include CAP_DAC_OVERRIDE and read
 * past the mode-000 mask of a denied file: setpriv empties it. Then the
 * command's setrlimit limits (limits.ts), if any.
 */

export interface LauncherTools {
  setpriv: string;
}

export interface LaunchContext {
  /** The seccomp loader runs the command (its nested user namespace). */
  loader: boolean;
  /** moat runs as uid 0: the loader's namespace is the host's root. */
  root: boolean;
}

/** `argv` behind setpriv where the command would otherwise hold capabilities, behind the limits either way. */
export function launch(tools: LauncherTools, at: LaunchContext, argv: readonly string[], limits: readonly string[] = []): string[] {
  if (!(at.loader && at.root)) return [...limits, ...argv];
  return [tools.setpriv, '--inh-caps=-all', '--ambient-caps=-all', '--bounding-set=-all', '--no-new-privs', '--', ...limits, ...argv];
}
