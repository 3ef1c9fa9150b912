/** The permission modes: how a session decides tool calls no rule settles. */

/** `dontAsk`: whatever would be asked is denied instead (for unattended runs that must never wait). */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** The modes an agent definition may name (Claude Code's agent files know no `dontAsk`). */
export const AGENT_PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;
export type AgentPermissionMode = (typeof AGENT_PERMISSION_MODES)[number];
