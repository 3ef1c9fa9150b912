/**
 * What runs the command inside the sandbox, after the seccomp loader: util-linux's
 * setpriv, so the command holds no capability and cannot gain one. The seccomp
 * loader makes a nested user namespace and leaves the command a full set there;
 * for a caller running as root that namespace is the host's uid 0, and
 * CAP_DAC_OVERRIDE would read past the mode-000 mask of a denied file.
 */

export interface LauncherTools {
  setpriv: string;
}

/**
 * `argv` behind setpriv. `fullSet`: the process starting it still holds
 * capabilities (the seccomp loader's namespace), so it can empty the bounding
 * set; without the loader bubblewrap has already dropped them all, and only
 * no_new_privs is left to set (dropping needs CAP_SETPCAP).
 */
export function launch(tools: LauncherTools, fullSet: boolean, argv: readonly string[]): string[] {
  const drop = fullSet ? ['--inh-caps=-all', '--ambient-caps=-all', '--bounding-set=-all'] : [];
  return [tools.setpriv, ...drop, '--no-new-privs', '--', ...argv];
}
