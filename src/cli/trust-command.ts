/** `moat trust [--revoke]`: the user trusts a project folder, so its settings may grant permissions and run hooks. */
import { resolve } from 'node:path';
import { loadConfig, moatPaths, projectTrust, trustProject, untrustProject } from '../config/index.ts';
import { EXIT } from './exit-codes.ts';
import { out } from './write-out.ts';

export const trustCommands = {
  trust(opts: { cwd?: string; revoke?: boolean }): Promise<number> {
    const env = process.env;
    const cwd = resolve(opts.cwd ?? process.cwd());
    const configDir = moatPaths(env).configDir;
    // Loaded before the change: what the project's files would grant is what trust turns on.
    const loaded = loadConfig({ cwd, env });
    const root = loaded.projectRoot;
    if (opts.revoke === true) {
      untrustProject(root, configDir);
      out(`${root} is no longer trusted: its allow rules, extra folders, env and hooks are ignored; its deny and ask rules still apply.\n`);
      return Promise.resolve(EXIT.ok);
    }
    const was = projectTrust(root, configDir).trusted;
    trustProject(root, configDir);
    const grants = loaded.untrusted.map((l) => `  ${l}\n`).join('');
    out(
      was
        ? `${root} was already trusted.\n`
        : `Trusted ${root}.${grants === '' ? ' Its files grant nothing yet.\n' : ` These now apply:\n${grants}`}`,
    );
    return Promise.resolve(EXIT.ok);
  },
};
