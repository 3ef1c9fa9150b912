/**
 * The permission engine as the agent's gate uses it: deciding a call, the
 * hint a denial carries, the rule an "always" answer would add. It loads on
 * the first permission check (`loadPermissionEngine` in index.ts): matching a
 * command takes the shell's parse and every command's argument rules (about
 * 55 KB), none of which the first request needs.
 */
export { decidePermission, preparePermissionCheck } from './decide.ts';
export { denialHint } from './denial-hint.ts';
export { ruleForCall, unmatchableReason } from './suggest.ts';
