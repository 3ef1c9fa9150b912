/** What the model is told when a call is refused. */
import { checkBashAllow } from './bash-allow.ts';
import type { Decision } from './decide.ts';
import { addDirFor } from './decide.ts';
import { callRuleName, type PermissionCall } from './rule-match.ts';
import { unmatchableReason } from './suggest.ts';

/**
 * What the model is told when a call is refused: which rule refused it, or —
 * in `-p` mode, where nobody can answer a prompt — what the user would have to
 * pass to allow it. Worded so the model can relay it to the user verbatim.
 */

const CONFIG = '[permissions] allow in .moat/config.toml';

/** Quote for a POSIX shell: double quotes when harmless, single quotes otherwise. */
export function shellQuote(text: string): string {
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function describeAction(call: PermissionCall): string {
  const name = callRuleName(call);
  const subject = call.intent.subject;
  const paths = call.intent.paths.map((p) => p.path);
  const where = paths.length > 0 ? paths.join(', ') : (subject ?? '');
  switch (name) {
    case 'Bash':
      return `running "${(subject ?? '').trim()}"`;
    case 'Edit':
      return `editing ${where}`;
    case 'Read':
      return `reading ${where}`;
    case 'WebFetch':
      return `fetching from ${subject ?? 'the web'}`;
    default:
      return `the ${call.toolName} call (${call.intent.summary})`;
  }
}

/** Why no rule can pre-approve a command line: a hazard, or a redirection target named at run time. */
function unmatchableBecause(line: string): string {
  const hazard = unmatchableReason(line);
  if (hazard !== null) return hazard;
  const check = checkBashAllow(line, [], '/');
  const targets = check.type === 'checked' ? check.unknownWrites : [];
  return `it writes to ${targets.join(', ') || 'a file'} whose name is only known when it runs`;
}

function ruleOptions(rules: readonly string[], broader: readonly string[]): string {
  const main = `--allowedTools ${shellQuote(rules.join(' '))}`;
  return broader.length > 0 ? `${main} (or ${shellQuote(broader.join(' '))})` : main;
}

/** The message for a call that was denied, or that needed approval nobody could give. */
export function denialHint(call: PermissionCall, decision: Exclude<Decision, { kind: 'allow' }>): string {
  const action = describeAction(call);
  if (decision.kind === 'deny') {
    if (decision.rule !== undefined) {
      const from = decision.source === undefined ? "one of this session's deny rules" : `from ${decision.source}`;
      return `Permission denied: ${action} is blocked by the deny rule "${decision.rule}" (${from}). Do not try to get around it; if it is needed, ask the user to change the rule.`;
    }
    // Plan mode is one of several refusals without a rule (bypassPermissions keeping the OS sandbox, dontAsk): the reason says which.
    if (!decision.reason.startsWith('plan mode')) return `Permission denied: ${action} is not allowed: ${decision.reason}.`;
    return `Permission denied: moat is in plan mode, where only read-only tools may run, so ${action} is not allowed. Finish the plan and present it; the user switches modes to carry it out.`;
  }
  switch (decision.cause) {
    case 'outside_roots': {
      const dirs = [...new Set(decision.outsidePaths.map(addDirFor))];
      const paths = decision.outsidePaths.join(', ');
      const are = decision.outsidePaths.length === 1 ? 'is' : 'are';
      return `Permission denied: ${action} needs approval because ${paths} ${are} outside the allowed folders, and moat -p cannot ask. To allow it, re-run with ${dirs.map((d) => `--add-dir ${shellQuote(d)}`).join(' ')}, or with ${ruleOptions(decision.rules, decision.broaderRules)}, or add the rule to ${CONFIG}.`;
    }
    case 'unmatchable_command': {
      const because = unmatchableBecause(call.intent.subject ?? '');
      return `Permission denied: ${action} needs approval because ${because}, which no allow rule can pre-approve, and moat -p cannot ask. Rewrite it as plain commands (no $(…), backticks, <(…) or subshells; write files with the Edit or Write tool), or the user can re-run with --allowedTools "Bash" to allow every command.`;
    }
    case 'sandbox_grant': {
      if (decision.sandboxGrant === 'off') {
        return `Permission denied: ${action} asks to run outside the OS sandbox, and moat -p cannot ask. Run it inside the sandbox (leave out \`sandbox\`, or use "workspace-write" to write in the working folder); only [sandbox] mode = "off" in the user config (~/.config/moat/config.toml) runs commands without it.`;
      }
      const options = ['--permission-mode acceptEdits', ...(decision.rules.length > 0 ? [ruleOptions(decision.rules, decision.broaderRules)] : [])];
      return `Permission denied: ${action} asks for write access to the working folder, and moat -p cannot ask. Without \`sandbox\` it runs read-only (it may read files and write only to the temp folder). To allow writes, the user can re-run with ${options.join(' or ')}, or add the rule to ${CONFIG}.`;
    }
    case 'ask_rule':
      return `Permission denied: ${action} matches an ask rule, so a person must approve it, and moat -p cannot ask. ${decision.reason}.`;
    case 'protected_path':
      return `Permission denied: ${decision.reason}. No rule or mode allows that; moat -p cannot ask. Tell the user what to change in the file and let them make the change, or run moat interactively, where they can approve this one write.`;
    case 'needs_approval': {
      const options: string[] = [];
      if (decision.acceptEditsWouldAllow) options.push('--permission-mode acceptEdits');
      if (decision.rules.length > 0) options.push(ruleOptions(decision.rules, decision.broaderRules));
      const rule = decision.rules.length > 1 ? 'the rules' : 'the rule';
      return `Permission denied: ${action} needs approval, and moat -p cannot ask. To allow it, re-run with ${options.join(' or ')}, or add ${rule} to ${CONFIG}.`;
    }
  }
}
