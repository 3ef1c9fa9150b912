/**
 * prepareCommand: turns a command and its grants into what to spawn. Consumers
 * (bash, `!cmd`, hooks, MCP stdio servers) spawn the result themselves, so a
 * transport that takes `command`/`args`/`env` can use it unchanged.
 */
import { randomBytes } from 'node:crypto';
import { bwrapArgv, realRoots } from './bwrap-argv.ts';
import { builtinDenyRead, builtinDenyWrite, protectedIn } from './deny-list.ts';
import { DEFAULT_SCRUB_ENV, scrubEnv } from './env-scrub.ts';
import { linkedWorktreeGrants } from './git-worktree.ts';
import { restoreLinks } from './link-guard.ts';
import { planMounts } from './mount-plan.ts';
import { launch } from './launcher.ts';
import { commandLimits } from './limits.ts';
import { linuxSandboxUtils } from './runtime-internals.ts';
import { holdPlaceholders } from './placeholders.ts';
import { applySeccompPath, deniedFilePath } from './seccomp-helper.ts';
import { sandboxSupport } from './support.ts';
import { SandboxUnavailableError, type PrepareOptions, type SandboxedCommand, type SandboxViolation } from './types.ts';
import { sessionTemp, systemTemp } from './session-temp.ts';
import { isWithin } from '../../util/index.ts';

/**
 * `--cap-drop ALL`, plus CAP_SETFCAP for a root caller using the seccomp
 * loader: its nested user namespace maps uid 0, which the kernel allows only
 * to a creator holding it (the runtime's own rule, reused).
 */
async function capabilities(usesSeccompHelper: boolean): Promise<string[]> {
  const { CAP_SETFCAP, capabilityArgs, processHasBoundingCapability } = await linuxSandboxUtils();
  return capabilityArgs({ euid: process.geteuid?.(), hasSetfcap: processHasBoundingCapability(CAP_SETFCAP), usesSeccompHelper });
}

function unsandboxed(argv: string[], env: Record<string, string>, reason?: string): SandboxedCommand {
  // Even unsandboxed, what a command leaves in $TMPDIR goes with the session.
  return { argv, env: { ...env, TMPDIR: sessionTemp() }, sandboxed: false, ...(reason === undefined ? {} : { unavailableReason: reason }), finish: () => Promise.resolve([]) };
}

/**
 * `tempDir`: the private temp folder bound at the system temp path (an MCP server's own; the caller makes and removes
 * it); without one, the session's (session-temp.ts).
 */
export async function prepareCommand(argv: string[], opts: PrepareOptions & { tempDir?: string }): Promise<SandboxedCommand> {
  if (argv.length === 0) throw new SandboxUnavailableError('prepareCommand needs a command', 'bad-grant');
  const env = scrubEnv(opts.env, opts.scrubEnv ?? DEFAULT_SCRUB_ENV);
  if (opts.mode === 'off') return unsandboxed(argv, env);
  const support = sandboxSupport(opts.env);
  // macOS: the same policy as a Seatbelt profile.
  if (support.available && support.sandboxExec !== undefined) return (await import('./seatbelt-command.ts')).prepareSeatbeltCommand(argv, opts, env, support.sandboxExec);
  if (!support.available || support.bwrap === undefined || support.setpriv === undefined) {
    const reason = support.reason ?? 'the OS sandbox is not available here';
    if (opts.mode === 'required') throw new SandboxUnavailableError(`the OS sandbox is required ([sandbox] mode = "required") but cannot run: ${reason}`);
    return unsandboxed(argv, env, reason);
  }
  const { grants } = opts;
  // The private temp folder (the session's, or the caller's own) is what the command sees at the system temp path.
  const tempAt = systemTemp();
  const temp = realRoots([opts.tempDir ?? sessionTemp()])[0] ?? sessionTemp();
  const projectRoots = realRoots(grants.allowWrite).filter((r) => r !== temp && r !== tempAt);
  const writeRoots = [temp, ...projectRoots];
  const denyWrite = [...grants.denyWrite, ...projectRoots.flatMap(protectedIn), ...builtinDenyWrite(opts.env)];
  // A linked worktree (a sub-agent's) keeps its git metadata outside itself: git add and commit need that much of it.
  for (const root of projectRoots) {
    const worktree = linkedWorktreeGrants(root);
    if (worktree === undefined) continue;
    for (const w of realRoots(worktree.write)) if (!writeRoots.includes(w)) writeRoots.push(w);
    denyWrite.push(...worktree.deny);
  }
  const denyRead = [...builtinDenyRead(opts.env), ...grants.denyRead];
  const mounts = planMounts(writeRoots, denyWrite, denyRead);
  const id = randomBytes(12).toString('hex');
  const setEnv: Record<string, string> = { SRT_ALLOW_NESTED_USERNS: '0', TMPDIR: tempAt };
  const bindSockets: string[] = [];
  const seccomp = grants.allowUnixSockets.length > 0 ? null : applySeccompPath();
  // A cache folder under the system temp path (a HOME there) would be hidden by the private one.
  if (seccomp !== null && isWithin(tempAt, seccomp)) bindSockets.push(seccomp);
  // A working folder below the system temp path, not writable here, must still be there to read (and to start in).
  const visible = realRoots([opts.cwd]).filter((p) => isWithin(tempAt, p) && !writeRoots.some((r) => isWithin(r, p)));
  // What the command's writes are judged against: the paths it sees, the private temp folder at the system temp path.
  const seenRoots = [tempAt, ...writeRoots.slice(1)];

  // Network: none at all (a fresh namespace), unless hosts are granted; then only through the filtering proxy.
  // The runtime's modules load on the first sandboxed command, not at start-up (they cost ~60 ms and ~25 MB).
  const bridge = grants.allowNetwork.length > 0 || grants.observeNetwork === true ? await (await import('./network-bridge.ts')).networkBridge() : undefined;
  const writes = seccomp === null ? undefined : await (await import('./write-monitor.ts')).watchWrites(id, seenRoots, mounts.refused);
  if (writes !== undefined) {
    bindSockets.push(writes.socketPath);
    Object.assign(setEnv, writes.env);
  }
  // The seccomp filter goes on last, right before the command: the relays need to create Unix sockets.
  const limits = commandLimits(id, grants.limits, support.prlimit ?? 'prlimit');
  const command = launch({ setpriv: support.setpriv }, { loader: seccomp !== null, root: process.geteuid?.() === 0 }, argv, limits.inner);
  let inner = seccomp === null ? command : [seccomp, ...command];
  if (bridge !== undefined) {
    bindSockets.push(bridge.socketPath);
    Object.assign(setEnv, bridge.env(id));
    inner = bridge.wrap(inner);
    bridge.register(id, grants.allowNetwork, grants.denyNetwork, { allowPrivate: grants.allowPrivateNetwork === true, allowLoopback: grants.allowLoopback === true });
  }

  const full = bwrapArgv({ bwrap: support.bwrap, cwd: opts.cwd, temp: { host: temp, at: tempAt, visible }, writeRoots: writeRoots.slice(1), mounts, deniedFile: deniedFilePath(), setEnv, bindSockets, capabilities: await capabilities(seccomp !== null) }, inner);
  // bubblewrap leaves an empty mount point on the host for each absent denied path: removed once no command uses it.
  const releasePlaceholders = holdPlaceholders(mounts.placeholders);
  let finished: Promise<SandboxViolation[]> | undefined;
  return {
    argv: [...limits.outer, ...full],
    env,
    sandboxed: true,
    finish(exit) {
      finished ??= (async () => {
        const found: SandboxViolation[] = limits.finish(exit?.code);
        if (writes !== undefined) found.push(...(await writes.done()));
        if (bridge !== undefined) found.push(...bridge.release(id));
        found.push(...restoreLinks(mounts.links));
        releasePlaceholders();
        return found;
      })();
      return finished;
    },
    refusedSoFar: () => [...(writes?.seen() ?? []), ...(bridge?.refused(id) ?? [])],
  };
}
