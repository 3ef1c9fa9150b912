/** The permission gate: rules and mode decide a call, or the front end is asked once. */
import type { SandboxGrant } from '../contracts/index.ts';
import type { AnyTool, CallIntent, PermissionPolicy, Rule } from '../tools/index.ts';
import { decidePermission, denialHint, describeGrant, parseRuleList, ruleForCall, unmatchableReason } from '../tools/index.ts';
import { newId } from '../util/index.ts';
import type { AgentEvent, PermissionDecision } from './events.ts';

export type { PermissionPolicy } from '../tools/index.ts';

/** How the front end answers a permission request; absent in -p mode (nothing can ask). */
export type AskPermission = (
  request: {
    requestId: string;
    toolUseId: string;
    toolName: string;
    /** The call's validated input. */
    input: unknown;
    intent: CallIntent;
  },
  /** The run's signal: when it aborts, the question is withdrawn and counts as a denial. */
  signal?: AbortSignal,
) => Promise<PermissionDecision>;

/**
 * Where an "allow always" answer is kept: `local`, the project's own file
 * that is not shared; `project`, the project's shared settings; `user`, the
 * user's; `session`, nowhere (this session only).
 */
export type RememberScope = 'local' | 'project' | 'user' | 'session';

/**
 * Persists an "allow always" answer as a rule. Each front end knows its files:
 * the TUI writes `.moat/config.toml` or the user config, stream-json input
 * Claude Code's `.claude/settings.local.json`, `.claude/settings.json` or
 * `~/.claude/settings.json`.
 */
export type RememberRule = (rule: string, scope: Exclude<RememberScope, 'session'>) => void;

export type GateResult =
  /** `updatedInput`: the person (an SDK program) changed the input; the caller validates and runs that instead. */
  | { ok: true; approvedPaths: string[]; updatedInput?: unknown; sandbox?: SandboxGrant }
  | { ok: false; message: string };

/** The call being decided. */
export interface GateCall {
  tool: AnyTool;
  /** The validated input. */
  input: unknown;
  intent: CallIntent;
  toolUseId: string;
  /** A PreToolUse hook's say: allow skips the question (deny rules still hold); ask asks even where rules allow. */
  hookDecision?: 'allow' | 'ask';
  /** The tool's preview for a person (it may read the disk); only called when someone is asked. */
  approvalPreview?: () => Promise<CallIntent['preview']>;
}

/** Where the decision comes from and where an answer goes. */
export interface GateDeps {
  policy: PermissionPolicy;
  emit: (e: AgentEvent) => void;
  /** Absent: nothing can ask (-p without a permission prompt tool); "ask" becomes a denial with a hint. */
  ask: AskPermission | undefined;
  /**
   * An "allow always" answer: the session adds the rule to its own grants
   * (the next call sees it) and the front end may persist it. The settings'
   * allow list is never mutated.
   */
  grant: (rule: Rule, text: string, scope: RememberScope) => void;
  /** Called before a dialog opens, so that running calls finish first: nothing runs while the user decides. */
  beforeAsk: () => Promise<void>;
  signal: AbortSignal;
}

/**
 * Decides one call: rules and mode first; when they say "ask", the front end
 * is asked, or — with no front end to ask — the call is denied with a hint
 * naming the flag or rule that would allow it.
 */
export async function checkPermission({ tool, input, intent, toolUseId, hookDecision, approvalPreview }: GateCall, deps: GateDeps): Promise<GateResult> {
  const { policy } = deps;
  const call = { toolName: tool.name, effect: tool.effect, intent };
  // The shell grammar loads on the first Bash call (bash-parser.ts).
  const decision = await decidePermission(call, policy);
  // What a person (or a hook) approves for a sandboxed command is the grant it asked for.
  const asked: { sandbox?: SandboxGrant } =
    decision.kind === 'allow' && decision.sandbox !== undefined
      ? { sandbox: decision.sandbox }
      : policy.osSandbox === true && intent.ruleName === 'Bash'
        ? { sandbox: intent.sandboxRequest ?? 'read-only' }
        : {};
  if (decision.kind === 'ask' && hookDecision === 'allow') return { ok: true, approvedPaths: outsideRoots(intent, policy.roots), ...asked };
  const kind = decision.kind === 'allow' && hookDecision === 'ask' ? 'ask' : decision.kind;
  switch (kind) {
    case 'allow':
      if (decision.kind !== 'allow') return { ok: true, approvedPaths: [] };
      return { ok: true, approvedPaths: decision.approvedPaths, ...(decision.sandbox === undefined ? {} : { sandbox: decision.sandbox }) };
    case 'deny':
      return { ok: false, message: decision.kind === 'deny' ? denialHint(call, decision) : `${tool.name} was denied.` };
    case 'ask': {
      if (!deps.ask) {
        return { ok: false, message: decision.kind === 'ask' ? denialHint(call, decision) : `A hook asked for approval of this ${tool.name} call, and nobody can be asked in this mode.` };
      }
      await deps.beforeAsk();
      const requestId = newId();
      // The edit's real diff when the tool can give it; the intent's own preview if that fails (the call itself will say why).
      const preview = approvalPreview === undefined ? undefined : await approvalPreview().catch(() => undefined);
      const request = { requestId, toolUseId, toolName: tool.name, input, intent: preview === undefined ? intent : { ...intent, preview } };
      // A protected path asks every time: no rule could lift that, so none is offered to remember.
      const protectedPath = decision.kind === 'ask' && decision.cause === 'protected_path';
      const rememberable = !protectedPath && !(intent.ruleName === 'Bash' && intent.subject && unmatchableReason(intent.subject));
      // Running outside the sandbox is remembered for exactly this command line, the one rule decide.ts lets lift it.
      const offRule = decision.kind === 'ask' && decision.sandboxGrant === 'off' ? decision.rules[0] : undefined;
      const suggested = rememberable ? (offRule ?? ruleForCall(call, policy.projectRoot, policy.home)) : undefined;
      // What approving adds, in the sandbox's own words, so the dialog can say exactly that.
      const grant = asked.sandbox === undefined ? undefined : { level: asked.sandbox, text: describeGrant(asked.sandbox, policy.roots) };
      deps.emit({ type: 'permission_request', ...request, ...(suggested === undefined ? {} : { rule: suggested }), ...(grant === undefined ? {} : { grant }) });
      const answer = await deps.ask(request, deps.signal);
      deps.emit({ type: 'permission_resolved', requestId, decision: answer });
      if (answer.behavior === 'deny') {
        const why = answer.message ? ` The user said: ${answer.message}` : '';
        return { ok: false, message: `The user denied this ${tool.name} call.${why}` };
      }
      // A command no rule can match ($(…), backticks, …) is allowed once; storing a rule for it would be a lie.
      if (answer.remember && suggested !== undefined) {
        // An SDK program may name the rules itself (its updatedPermissions); otherwise the rule is derived from the call.
        for (const text of answer.rules ?? [suggested]) {
          const [rule] = parseRuleListSafe(text);
          if (rule) deps.grant(rule, text, answer.remember);
        }
      }
      // Paths outside the roots were part of what the user approved.
      const approvedPaths = outsideRoots(intent, policy.roots);
      return answer.updatedInput === undefined ? { ok: true, approvedPaths, ...asked } : { ok: true, approvedPaths, updatedInput: answer.updatedInput, ...asked };
    }
  }
}

/** The paths of a call that lie outside the roots: what a person's approval covers. */
export function outsideRoots(intent: CallIntent, roots: readonly string[]): string[] {
  return intent.paths.map((p) => p.path).filter((p) => !roots.some((r) => p === r || p.startsWith(`${r}/`)));
}

/** A rule we generated ourselves should always parse; if not, remembering it is skipped rather than fatal. */
function parseRuleListSafe(rule: string): Rule[] {
  try {
    return parseRuleList([rule]);
  } catch {
    return [];
  }
}
