/** A manifest to the grants of one sandbox run. */
import { DEFAULT_LIMITS, type Limits, type NetworkGrant, type Preopen } from '../../sandbox/index.ts';
import type { ToolManifest } from './manifest.ts';

/**
 * A manifest → the grants of one sandbox run. The working folder is mounted
 * at "/" (read-only unless the manifest says read-write), extra paths are
 * always read-only, and only declared environment variables pass, with the
 * values they have in the caller's environment.
 */

export interface Grants {
  preopens: Preopen[];
  env: Record<string, string>;
  limits: Limits;
  network?: NetworkGrant;
}

export interface GrantContext {
  /** The session's working folder (sub-agents run in other worktrees). */
  cwd: string;
  /** Where declared variables are looked up; never passed through wholesale. */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Allowed hosts may resolve to private and loopback addresses (never cloud
   * metadata). Only the composition root sets it — for tests that serve on
   * 127.0.0.1, through their own entry point; no variable or flag does.
   */
  allowPrivateNetwork?: boolean;
}

export function grantsFor(manifest: ToolManifest, ctx: GrantContext): Grants {
  const preopens: Preopen[] = [];
  if (manifest.cwd !== 'none') preopens.push({ hostPath: ctx.cwd, guestPath: '/', readOnly: manifest.cwd === 'read' });
  for (const p of manifest.paths) preopens.push({ hostPath: p.host, guestPath: p.guest, readOnly: true });
  const env: Record<string, string> = {};
  for (const name of manifest.env) {
    const value = ctx.env[name];
    if (value !== undefined) env[name] = value;
  }
  const grants: Grants = { preopens, env, limits: { ...DEFAULT_LIMITS, ...manifest.limits } };
  if (manifest.networkAllow.length > 0) {
    grants.network = { allowHosts: [...manifest.networkAllow] };
    if (ctx.allowPrivateNetwork === true) grants.network.allowPrivate = true;
  }
  return grants;
}

