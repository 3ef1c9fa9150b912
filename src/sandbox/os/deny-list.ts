/**
 * The paths no sandboxed process may read, whatever the grants say: the
 * user's keys and cloud credentials, browser profiles, and moat's own
 * database and credentials. And the paths no sandboxed process may write even
 * inside a writable root, because writing them would widen what runs next
 * (git hooks, project settings that grant permissions or start servers).
 */
import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { nodeOs, homeOf } from '../../util/index.ts';

type Env = Readonly<Record<string, string | undefined>>;

function xdg(env: Env, name: string, home: string, fallback: string): string {
  const v = env[name];
  return v !== undefined && isAbsolute(v) ? v : join(home, fallback);
}

const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.netrc',
  '.docker/config.json',
  '.kube',
  '.azure',
  '.git-credentials',
  '.config/gh',
  '.pypirc',
  '.password-store',
  // Claude Code's credentials, and its settings, whose `env` may hold provider tokens.
  '.claude/.credentials.json',
  '.claude.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
  // Browser profiles: cookies and saved passwords.
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  'snap/firefox',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Keychains',
];

let rootOwned: string[] | undefined;

/**
 * The system's secrets that only root may read: a command run by root is uid 0
 * without capabilities, which still owns them. Listed once per process.
 */
function rootSecrets(): string[] {
  if (rootOwned !== undefined) return rootOwned;
  const out = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/sudoers', '/etc/sudoers.d', '/etc/ssl/private'];
  try {
    for (const name of readdirSync('/etc/ssh')) if (/^ssh_host_.*_key$/.test(name)) out.push(join('/etc/ssh', name));
  } catch {
    // No ssh server here.
  }
  return (rootOwned = out);
}

/** Absolute paths denied for reading, for the user whose environment `env` is (and the real home, when it differs). */
export function builtinDenyRead(env: Env): string[] {
  const homes = [...new Set([homeOf(env), nodeOs().homedir()])];
  const out: string[] = process.geteuid?.() === 0 ? [...rootSecrets()] : [];
  for (const home of homes) {
    for (const rel of HOME_SECRETS) out.push(join(home, rel));
    // moat's database (sessions, transcripts) and its state; its config folder: config.toml (tokens in
    // [mcp_servers.*] env), projects.json (trust), credentials.json.
    out.push(join(xdg(env, 'XDG_DATA_HOME', home, '.local/share'), 'moat'));
    out.push(join(xdg(env, 'XDG_CONFIG_HOME', home, '.config'), 'moat'));
  }
  return out;
}

/**
 * Inside each writable root: never writable, so a command cannot plant
 * something that runs or grants later. The file tools (Write, Edit,
 * NotebookEdit) read the same list: such a write always asks. Besides the
 * config and hooks, the files that point git at another configuration
 * (`commondir`, a linked worktree's `gitdir`) and the submodules' own
 * repositories (`modules`); `.git/worktrees/<name>/…` is matched for every
 * name (protectedIn lists the existing ones for the OS sandbox).
 */
export const PROTECTED_IN_ROOT: readonly string[] = [
  '.git/hooks',
  '.git/config',
  '.git/commondir',
  '.git/modules',
  '.git/worktrees/*/commondir',
  '.git/worktrees/*/gitdir',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/commands',
  '.claude/agents',
  '.claude/skills',
  '.moat',
  '.mcp.json',
  '.agents',
];

/**
 * Files git reads where it looks for a repository: a folder (the placeholder
 * that keeps an absent path uncreatable) would stop git itself ("failed to
 * read …/commondir"), so they are protected only where they exist. Planting
 * one is answered by moat's own git (flags, no status before trust, the
 * read-only sandbox after).
 */
const ONLY_WHERE_PRESENT: ReadonlySet<string> = new Set(['.git/commondir', '.git/worktrees/*/commondir', '.git/worktrees/*/gitdir']);

/**
 * The protected paths of one writable root. Outside a repository `.git` is
 * left alone: a mount there would keep `git init` from working, and a new
 * repository's hooks are the command's own (the next command protects them).
 */
export function protectedIn(root: string): string[] {
  const repo = existsSync(join(root, '.git'));
  return PROTECTED_IN_ROOT.filter((name) => repo || !name.startsWith('.git/')).flatMap((name) => {
    const star = name.indexOf('/*/');
    const paths = star < 0 ? [join(root, name)] : childFolders(join(root, name.slice(0, star))).map((child) => join(root, name.slice(0, star), child, name.slice(star + 3)));
    return ONLY_WHERE_PRESENT.has(name) ? paths.filter((p) => existsSync(p)) : paths;
  });
}

function childFolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Outside the roots but still worth stating: moat's config (trust, rules) is never writable. */
export function builtinDenyWrite(env: Env): string[] {
  const home = homeOf(env);
  return [join(xdg(env, 'XDG_CONFIG_HOME', home, '.config'), 'moat'), join(home, '.claude')];
}
