/**
 * A custom command's `` !`cmd` `` lines (Claude Code's output inclusion): each
 * command is judged like a Bash call — the user's rules, the mode, the OS
 * sandbox, plus the command's own `allowed-tools` — and its output replaces
 * it in the prompt. What the rules would ask about or deny is not run; the
 * model reads why instead.
 */
import type { AgentSettings } from '../agent/index.ts';
import { decidePermission, loadHookProcess, loadShellParser, parseRuleList, type PermissionPolicy } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';

const INLINE = /!`([^`\n]+)`/g;
const OUTPUT_CAP = 20_000;

export function hasInlineCommands(prompt: string): boolean {
  return /!`[^`\n]+`/.test(prompt);
}

export async function runInlineCommands(prompt: string, allowedTools: readonly string[], settings: AgentSettings, signal: AbortSignal): Promise<string> {
  if (!hasInlineCommands(prompt)) return prompt;
  const roots = [settings.cwd, ...settings.addDirs];
  const policy: PermissionPolicy = {
    mode: settings.permissionMode,
    allow: [...settings.allow, ...parseRuleList(allowedTools.filter((t) => /^Bash\b/.test(t)))],
    deny: settings.deny,
    ...(settings.ask === undefined ? {} : { ask: settings.ask }),
    roots,
    projectRoot: settings.projectRoot,
    home: settings.home,
    ...(settings.processSandbox?.active === true ? { osSandbox: true } : {}),
  };
  const outputs = new Map<string, string>();
  if (prompt.includes('!`')) await loadShellParser();
  for (const m of prompt.matchAll(INLINE)) {
    const command = m[1]!;
    if (outputs.has(command)) continue;
    const decision = decidePermission({ toolName: 'Bash', effect: 'execute', intent: { ruleName: 'Bash', subject: command, paths: [], summary: command, cwd: settings.cwd } }, policy);
    if (decision.kind !== 'allow') {
      outputs.set(command, `[not run: ${decision.reason}]`);
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
        level: decision.sandbox ?? 'read-only',
      });
      const text = `${r.stdout}${r.stderr}`.trimEnd();
      const capped = text.length > OUTPUT_CAP ? `${text.slice(0, OUTPUT_CAP)}\n… (cut)` : text;
      outputs.set(command, r.timedOut ? `${capped}\n[timed out]` : r.exitCode === 0 ? capped : `${capped}\n[exit ${r.exitCode ?? 'by signal'}]`);
    } catch (e) {
      outputs.set(command, `[not run: ${errorMessage(e)}]`);
    }
  }
  return prompt.replace(INLINE, (_, command: string) => outputs.get(command) ?? '');
}
