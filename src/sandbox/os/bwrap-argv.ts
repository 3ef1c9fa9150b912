/**
 * The bubblewrap command line for one sandboxed process: the whole filesystem
 * read-only, the writable roots bound read-write, protected and denied paths
 * re-mounted read-only inside them (or, absent, made uncreatable), denied
 * reads masked by unreadable mounts, fresh user/PID/network/IPC namespaces,
 * /proc/sys read-only, all capabilities dropped, and the child tied to the
 * parent's life.
 */
import { realpathSync } from 'node:fs';
import type { MountPlan } from './mount-plan.ts';

export interface BwrapPlan {
  bwrap: string;
  cwd: string;
  /** Real, existing directories (or files) the process may write. */
  writeRoots: string[];
  /** What keeps the deny lists inside and around the writable roots (mount-plan.ts). */
  mounts: MountPlan;
  /** An existing mode-000 file that denied files are masked with. */
  deniedFile: string;
  /** Variables bubblewrap sets inside (after the environment the process is spawned with). */
  setEnv: Record<string, string>;
  /** Sockets (or folders of them) bound read-only into the sandbox: the proxy bridge, the violation monitor. Connecting needs no write access to the mount. */
  bindSockets: string[];
  /** bubblewrap's capability options (always `--cap-drop ALL`; see capabilityArgs in prepare-command.ts). */
  capabilities: string[];
}

export function bwrapArgv(plan: BwrapPlan, command: readonly string[]): string[] {
  const { mounts } = plan;
  const args = [plan.bwrap, '--new-session', '--die-with-parent', '--unshare-all', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // The sysctls are the host's: a uid 0 mapped to the host's root may write them whatever its capabilities (the kernel
  // checks only the uid), and kernel.core_pattern runs a program as root. /proc/sysrq-trigger is not there on every kernel.
  args.push('--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger');
  // Pins first, so the writable roots bound next bury them: still mount points the kernel will not rename, never read-only in use.
  for (const dir of mounts.pins) args.push('--ro-bind', dir, dir);
  for (const root of plan.writeRoots) args.push('--bind', root, root);
  // Read-only islands inside the writable roots; outside them everything is read-only already.
  for (const p of mounts.readOnly) args.push('--ro-bind', p, p);
  // Absent paths get an empty read-only folder, whether a file or a folder was denied: nothing can be created at or
  // below it, and tools that list the tree skip it (git does not show or add an empty folder; a file mount point,
  // regular or device, makes `git add -A` fail).
  for (const p of mounts.placeholders) args.push('--perms', '0555', '--tmpfs', p, '--remount-ro', p);
  // Masks last, so a denied folder inside a writable root stays denied.
  for (const m of mounts.masks) {
    if (m.dir) args.push('--perms', '0000', '--tmpfs', m.path, '--remount-ro', m.path);
    else args.push('--ro-bind', plan.deniedFile, m.path);
  }
  for (const s of plan.bindSockets) args.push('--ro-bind', s, s);
  for (const [k, v] of Object.entries(plan.setEnv)) args.push('--setenv', k, v);
  args.push(...plan.capabilities, '--chdir', plan.cwd, '--', ...command);
  return args;
}

/** The real path of each existing root; roots that do not exist are dropped (bubblewrap cannot bind them). */
export function realRoots(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    try {
      const real = realpathSync(p);
      if (!out.includes(real)) out.push(real);
    } catch {
      // Not there: nothing to write into.
    }
  }
  return out;
}

