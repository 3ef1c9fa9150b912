/** A command the user (or a custom command's !`cmd`) runs through moat, decided as the model's Bash call would be: same rules, same mode, same question. */
import type { AnyTool, PermissionPolicy, Rule } from '../tools/index.ts';
import { newId } from '../util/index.ts';
import type { AgentEvent } from './events.ts';
import { checkPermission, type AskPermission, type GateResult, type RememberScope } from './permission-gate.ts';

export type { GateResult, PermissionPolicy, RememberScope } from './permission-gate.ts';

export interface CommandCheckDeps {
  /** The session's Bash tool: its intent is what the rules match, its name what the events carry. */
  bash: AnyTool | undefined;
  policy: PermissionPolicy;
  ask: AskPermission | undefined;
  /** An "always" answer: kept as the session's grant, and persisted by the front end unless `session`. */
  grant: (rule: Rule, text: string, scope: RememberScope) => void;
  /** Where the permission events go: the front end's stream, as a tool call's do. */
  emit: (e: AgentEvent) => void;
  signal: AbortSignal;
  cwd: string;
  roots: readonly string[];
}

export interface CommandCheckOptions {
  /** Rules for this command only (a custom command's `allowed-tools`). */
  allow?: readonly Rule[];
  /** The sandbox the command asks for, as a Bash call's `sandbox` field (the TUI's `!cmd`: workspace-write, as a shell would). */
  sandbox?: 'workspace-write';
}

/**
 * Runs `checkPermission` for `command` as a Bash call with a tool-use id of
 * its own (`cmd_…`): the rules and the mode decide, else the person is
 * asked with a `permission_request` and their answer comes back as
 * `permission_resolved`; a refusal is a `permission_denied` event.
 */
export async function checkCommandPermission(command: string, deps: CommandCheckDeps, o: CommandCheckOptions = {}): Promise<GateResult> {
  if (!deps.bash) return { ok: false, message: 'Bash is not available in this session, so !commands cannot run.' };
  const allow = o.allow ?? [];
  const input = o.sandbox === undefined ? { command } : { command, sandbox: o.sandbox };
  const toolUseId = `cmd_${newId()}`;
  const intent = deps.bash.intent(input, { cwd: deps.cwd, roots: deps.roots });
  const policy = allow.length === 0 ? deps.policy : { ...deps.policy, allow: [...deps.policy.allow, ...allow] };
  const gate = await checkPermission({ tool: deps.bash, input, intent, toolUseId }, { policy, emit: deps.emit, ask: deps.ask, grant: deps.grant, beforeAsk: async () => undefined, signal: deps.signal });
  if (!gate.ok) deps.emit({ type: 'permission_denied', toolUseId, toolName: deps.bash.name, input, message: gate.message });
  return gate;
}
