/**
 * prepareCommand's macOS backend: the same policy as bubblewrap's (the same
 * writable roots, protected paths, deny lists, network through the same
 * filtering proxies, the same scrubbed environment), enforced by Seatbelt
 * with a profile generated per command (seatbelt-profile.ts). What differs:
 * Seatbelt matches paths itself, so absent protected paths need no
 * placeholders and symlinks no guard; there is no network namespace, so the
 * proxies listen on loopback ports, the only addresses the profile allows;
 * and write refusals are not reported back (they reach the command as
 * "Operation not permitted").
 */
import { randomBytes } from 'node:crypto';
import { realRoots } from './bwrap-argv.ts';
import { builtinDenyRead, builtinDenyWrite, protectedIn } from './deny-list.ts';
import { linkedWorktreeGrants } from './git-worktree.ts';
import { seatbeltProfile, type SeatbeltPolicy } from './seatbelt-profile.ts';
import type { PrepareOptions, SandboxedCommand, SandboxViolation } from './types.ts';
import { nodeOs } from '../../util/index.ts';

/** The policy for one command, from its grants: what prepareCommand computes for bubblewrap, as paths for a profile. */
export function seatbeltPolicy(id: string, opts: PrepareOptions & { tempDir?: string }, network: SeatbeltPolicy['network']): SeatbeltPolicy {
  const { grants } = opts;
  const temp = realRoots([opts.tempDir ?? nodeOs().tmpdir()]);
  const writeRoots = realRoots([...grants.allowWrite, ...temp]);
  const projectRoots = writeRoots.filter((r) => !temp.includes(r));
  const denyWrite = [...grants.denyWrite, ...projectRoots.flatMap(protectedIn), ...builtinDenyWrite(opts.env)];
  // A linked worktree (a sub-agent's) keeps its git metadata outside itself: git add and commit need that much of it.
  for (const root of projectRoots) {
    const worktree = linkedWorktreeGrants(root);
    if (worktree === undefined) continue;
    for (const w of realRoots(worktree.write)) if (!writeRoots.includes(w)) writeRoots.push(w);
    denyWrite.push(...worktree.deny);
  }
  const denyRead = [...builtinDenyRead(opts.env), ...grants.denyRead];
  return { id, writeRoots, denyWrite, denyRead, network, allowUnixSockets: grants.allowUnixSockets };
}

/** `env` is already scrubbed; the proxy variables are added when hosts are granted. */
export async function prepareSeatbeltCommand(argv: string[], opts: PrepareOptions & { tempDir?: string }, env: Record<string, string>, sandboxExec: string): Promise<SandboxedCommand> {
  const id = randomBytes(12).toString('hex');
  const { grants } = opts;
  const proxies = grants.allowNetwork.length > 0 || grants.observeNetwork === true ? await (await import('./network-bridge.ts')).loopbackProxies() : undefined;
  const policy = seatbeltPolicy(id, opts, proxies === undefined ? 'none' : { httpPort: proxies.httpPort, socksPort: proxies.socksPort });
  const profile = await seatbeltProfile(policy);
  if (proxies !== undefined) {
    Object.assign(env, proxies.env(id));
    proxies.register(id, grants.allowNetwork, grants.denyNetwork, { allowPrivate: grants.allowPrivateNetwork === true, allowLoopback: grants.allowLoopback === true });
  }
  let finished: Promise<SandboxViolation[]> | undefined;
  return {
    argv: [sandboxExec, '-p', profile, ...argv],
    env,
    sandboxed: true,
    finish() {
      finished ??= Promise.resolve(proxies === undefined ? [] : proxies.release(id));
      return finished;
    },
    refusedSoFar: () => proxies?.refused(id) ?? [],
  };
}
