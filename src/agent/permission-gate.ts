import type { AnyTool, CallIntent, PermissionPolicy, Rule } from '../tools/index.ts';
import { decidePermission, denialHint, parseRuleList, ruleForCall, unmatchableReason } from '../tools/index.ts';
import { newId } from '../util/index.ts';
import type { AgentEvent, PermissionDecision } from './events.ts';

export type { PermissionMode, PermissionPolicy } from '../tools/index.ts';

/** How the front end answers a permission request; absent in -p mode (nothing can ask). */
export type AskPermission = (request: {
  requestId: string;
  toolUseId: string;
  toolName: string;
  intent: CallIntent;
}) => Promise<PermissionDecision>;

/** Persists an "allow always" answer as a rule (the TUI writes it to .moat/config.toml or the user config). */
export type RememberRule = (rule: string, scope: 'project' | 'user') => void;

export type GateResult = { ok: true; approvedPaths: string[] } | { ok: false; message: string };

/**
 * Decides one call: rules and mode first; when they say "ask", the front end
 * is asked, or — with no front end to ask — the call is denied with a hint
 * naming the flag or rule that would allow it.
 */
export async function checkPermission(
  tool: AnyTool,
  intent: CallIntent,
  toolUseId: string,
  policy: PermissionPolicy,
  emit: (e: AgentEvent) => void,
  ask: AskPermission | undefined,
  remember: RememberRule | undefined,
  /** Called before a dialog opens, so that running calls finish first: nothing runs while the user decides. */
  beforeAsk: () => Promise<void>,
): Promise<GateResult> {
  const call = { toolName: tool.name, effect: tool.effect, intent };
  const decision = decidePermission(call, policy);
  switch (decision.kind) {
    case 'allow':
      return { ok: true, approvedPaths: decision.approvedPaths };
    case 'deny':
      return { ok: false, message: denialHint(call, decision) };
    case 'ask': {
      if (!ask) return { ok: false, message: denialHint(call, decision) };
      await beforeAsk();
      const requestId = newId();
      emit({ type: 'permission_request', requestId, toolUseId, toolName: tool.name, intent });
      const answer = await ask({ requestId, toolUseId, toolName: tool.name, intent });
      emit({ type: 'permission_resolved', requestId, decision: answer });
      if (answer.behavior === 'deny') {
        const why = answer.message ? ` The user said: ${answer.message}` : '';
        return { ok: false, message: `The user denied this ${tool.name} call.${why}` };
      }
      // A command no rule can match ($(…), backticks, …) is allowed once; storing a rule for it would be a lie.
      const rememberable = !(intent.ruleName === 'Bash' && intent.subject && unmatchableReason(intent.subject));
      if (answer.remember && rememberable) {
        const rule = ruleForCall(call, policy.projectRoot, policy.home);
        remember?.(rule, answer.remember);
        policy.allow.push(...parseRuleListSafe(rule));
      }
      // Paths outside the roots were part of what the user approved.
      const outside = intent.paths.map((p) => p.path).filter((p) => !policy.roots.some((r) => p === r || p.startsWith(`${r}/`)));
      return { ok: true, approvedPaths: outside };
    }
  }
}

/** A rule we generated ourselves should always parse; if not, remembering it is skipped rather than fatal. */
function parseRuleListSafe(rule: string): Rule[] {
  try {
    return parseRuleList([rule]);
  } catch {
    return [];
  }
}
