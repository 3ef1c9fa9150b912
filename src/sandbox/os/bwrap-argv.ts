/**
 * The bubblewrap command line for one sandboxed process: the whole filesystem
 * read-only, the writable roots bound read-write, protected and denied paths
 * re-mounted read-only inside them, denied reads masked by unreadable mounts,
 * fresh user/PID/network/IPC namespaces, all capabilities dropped, and the
 * child tied to the parent's life.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface BwrapPlan {
  bwrap: string;
  cwd: string;
  /** Real, existing directories (or files) the process may write. */
  writeRoots: string[];
  /** Absolute paths re-mounted read-only (inside a write root). */
  denyWrite: string[];
  /** Absolute paths masked: unreadable and unwritable. */
  denyRead: string[];
  /** An existing mode-000 file that denied files are masked with. */
  deniedFile: string;
  /** Variables bubblewrap sets inside (after the environment the process is spawned with). */
  setEnv: Record<string, string>;
  /** Sockets (or folders of them) bound read-only into the sandbox: the proxy bridge, the violation monitor. Connecting needs no write access to the mount. */
  bindSockets: string[];
  /** bubblewrap's capability options (always `--cap-drop ALL`; see capabilityArgs in prepare-command.ts). */
  capabilities: string[];
}

interface Existing {
  path: string;
  dir: boolean;
}

/** The path and, when a symlink leads elsewhere, its target too: a mask on the link alone would leave the target open. */
function existingForms(path: string): Existing[] {
  const out: Existing[] = [];
  try {
    const l = lstatSync(path);
    if (!l.isSymbolicLink()) out.push({ path, dir: l.isDirectory() });
    const real = realpathSync(path);
    if (real !== path) out.push({ path: real, dir: statSync(real).isDirectory() });
  } catch {
    // Missing (or a dangling link): nothing there to read or to protect.
  }
  return out;
}

function under(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

export function bwrapArgv(plan: BwrapPlan, command: readonly string[]): string[] {
  const args = [plan.bwrap, '--new-session', '--die-with-parent', '--unshare-all', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const root of plan.writeRoots) args.push('--bind', root, root);
  // Read-only islands inside the writable roots; outside them everything is read-only already.
  const seen = new Set<string>();
  for (const p of plan.denyWrite) {
    for (const e of existingForms(p)) {
      if (seen.has(e.path) || !plan.writeRoots.some((r) => under(e.path, r))) continue;
      seen.add(e.path);
      args.push('--ro-bind', e.path, e.path);
    }
  }
  // Masks last, so a denied folder inside a writable root stays denied.
  const masked = new Set<string>();
  for (const p of plan.denyRead) {
    for (const e of existingForms(p)) {
      if (masked.has(e.path) || [...masked].some((m) => under(e.path, m))) continue;
      masked.add(e.path);
      if (e.dir) args.push('--perms', '0000', '--tmpfs', e.path, '--remount-ro', e.path);
      else args.push('--ro-bind', plan.deniedFile, e.path);
    }
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

/** The protected names resolved inside each root. */
export function protectedPaths(roots: readonly string[], names: readonly string[]): string[] {
  return roots.flatMap((r) => names.map((n) => join(r, n)));
}
