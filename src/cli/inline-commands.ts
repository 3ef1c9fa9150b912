/**
 * A custom command's `` !`cmd` `` lines (Claude Code's output inclusion): each
 * command goes through the session's permission check for a Bash call — the
 * user's rules, the mode, the OS sandbox, the session's grants, plus the
 * command's own `allowed-tools` — with the same permission events, and its
 * output replaces it in the prompt. What is refused (in -p: anything that
 * would need a question) is not run; the model reads why instead. A project's command or skill grants nothing until
 * the folder is trusted: a cloned repository must not pre-approve the
 * commands its own files run.
 */
import type { AgentEvent, AgentSession, AgentSettings } from '../agent/index.ts';
import type { Skill } from '../skills/index.ts';
import { loadHookProcess, parseRuleList, type Rule } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';

const INLINE = /!`([^`\n]+)`/g;
const OUTPUT_CAP = 20_000;

export function hasInlineCommands(prompt: string): boolean {
  return /!`[^`\n]+`/.test(prompt);
}

/** The `allowed-tools` that apply: the user's own and bundled definitions', a project's only in a trusted folder. */
function grantedTools(skill: Pick<Skill, 'allowedTools' | 'source'>, settings: Pick<AgentSettings, 'trustedFolder'>): { granted: readonly string[]; ignored: boolean } {
  const listed = skill.allowedTools ?? [];
  if (skill.source !== 'project' || settings.trustedFolder === true) return { granted: listed, ignored: false };
  return { granted: [], ignored: listed.length > 0 };
}

/** The session's check of one command as a Bash call, with this command's `allowed-tools` rules added (AgentSession.checkCommand). */
export type InlineCheck = (command: string, allow: readonly Rule[]) => ReturnType<AgentSession['checkCommand']>;

/** That check on `session`: the permission events go to `onEvent` (nowhere by default). */
export function sessionCheck(session: Pick<AgentSession, 'checkCommand'>, signal: AbortSignal, onEvent: (e: AgentEvent) => void = () => undefined): InlineCheck {
  return (command, allow) => session.checkCommand(command, onEvent, signal, { allow });
}

export async function runInlineCommands(prompt: string, skill: Pick<Skill, 'allowedTools' | 'source'>, settings: AgentSettings, signal: AbortSignal, check: InlineCheck): Promise<string> {
  if (!hasInlineCommands(prompt)) return prompt;
  const roots = [settings.cwd, ...settings.addDirs];
  const { granted, ignored } = grantedTools(skill, settings);
  const untrustedNote = ignored ? "this project's command lists allowed-tools, which apply once you trust the folder (moat trust)" : undefined;
  const allow = parseRuleList(granted.filter((t) => /^Bash\b/.test(t)));
  const outputs = new Map<string, string>();
  for (const m of prompt.matchAll(INLINE)) {
    const command = m[1]!;
    if (outputs.has(command)) continue;
    const gate = await check(command, allow);
    if (!gate.ok) {
      outputs.set(command, `[not run: ${gate.message}${untrustedNote === undefined ? '' : `; ${untrustedNote}`}]`);
      continue;
    }
    try {
      const { runHookProcess } = await loadHookProcess();
      const r = await runHookProcess(command, '', {
        cwd: settings.cwd,
        roots,
        processSandbox: settings.processSandbox,
        env: {},
        timeoutMs: settings.bashTimeoutMs,
        signal,
        level: gate.sandbox ?? 'read-only',
      });
      const text = `${r.stdout}${r.stderr}`.trimEnd();
      const capped = text.length > OUTPUT_CAP ? `${text.slice(0, OUTPUT_CAP)}\n… (cut)` : text;
      const ran = r.timedOut ? `${capped}\n[timed out]` : r.exitCode === 0 ? capped : `${capped}\n[exit ${r.exitCode ?? 'by signal'}]`;
      // Run without the grants its allowed-tools asked for (read-only, in the sandbox): say why it may have failed.
      outputs.set(command, untrustedNote === undefined ? ran : `${ran}\n[${untrustedNote}]`);
    } catch (e) {
      outputs.set(command, `[not run: ${errorMessage(e)}]`);
    }
  }
  return prompt.replace(INLINE, (_, command: string) => outputs.get(command) ?? '');
}
