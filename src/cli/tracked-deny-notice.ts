/**
 * The start-up line for `Read(…)` deny rules that match files git tracks: the
 * rule hides the file from the tools and the sandbox, not its committed copy
 * (`git show HEAD:.env` reads it from the object store), so the user hears
 * it once, at start, rather than believing the secret unreachable.
 */
import type { AgentSettings } from '../agent/index.ts';
import { decidePermission, type PermissionCall, type PermissionPolicy } from '../tools/index.ts';
import { SAFE_GIT_FLAGS } from '../util/index.ts';

const NAMED = 3;

/** The tracked files under the project root, relative to it; empty outside a repository or without git. */
async function trackedFiles(projectRoot: string): Promise<string[]> {
  try {
    // ls-files runs no filter; moat's flags keep the repository's fsmonitor and hooks from running.
    const proc = Bun.spawn(['git', ...SAFE_GIT_FLAGS, 'ls-files', '-z'], { cwd: projectRoot, stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return code === 0 ? out.split('\0').filter((f) => f !== '') : [];
  } catch {
    return [];
  }
}

/** One line naming the tracked files a `Read(…)` deny rule hides, or undefined (also when there are no such rules: then git does not run). */
export async function trackedDenyNotice(settings: Pick<AgentSettings, 'deny' | 'projectRoot' | 'home' | 'cwd'>): Promise<string | undefined> {
  const readDenies = settings.deny.filter((r) => r.type === 'path' && r.ruleName === 'Read');
  if (readDenies.length === 0) return undefined;
  const policy: PermissionPolicy = { mode: 'default', allow: [], deny: readDenies, roots: [settings.cwd], projectRoot: settings.projectRoot, home: settings.home };
  const hidden: string[] = [];
  for (const rel of await trackedFiles(settings.projectRoot)) {
    const path = `${settings.projectRoot}/${rel}`;
    const call: PermissionCall = { toolName: 'Read', effect: 'read', intent: { ruleName: 'Read', subject: path, paths: [{ path, access: 'read' }], summary: rel } };
    if ((await decidePermission(call, policy)).kind === 'deny') hidden.push(rel);
  }
  if (hidden.length === 0) return undefined;
  const named = hidden.slice(0, NAMED).join(', ') + (hidden.length > NAMED ? `, and ${hidden.length - NAMED} more` : '');
  return `Read deny rules hide ${hidden.length === 1 ? 'a file' : `${hidden.length} files`} git tracks (${named}): the tools and the sandbox refuse ${hidden.length === 1 ? 'it' : 'them'}, but the committed ${hidden.length === 1 ? 'copy stays' : 'copies stay'} readable (git show HEAD:${hidden[0]}); take secrets out of the repository`;
}
