/**
 * The permission engine: Claude-Code-style rules, a bash parser that keeps
 * chained commands from riding on one rule, and the decision for one call.
 */
export { parseRule, parseRuleList, splitRuleList, PermissionRuleError, type Rule } from './rule.ts';
export { canonicalRuleName } from './rule-names.ts';
export { loadShellParser } from './bash-parser.ts';
export { type CommandPattern } from './command-pattern.ts';
export { type PathPattern } from './path-pattern.ts';
export { type PermissionCall } from './rule-match.ts';
export { deniedOutright } from './tool-names.ts';
export {
  decidePermission,
  type PermissionPolicy,
  type Decision,
  type AskCause,
} from './decide.ts';
export { ruleSandboxGrants, patternPaths, type RuleSandboxGrants } from './sandbox-paths.ts';
export { denialHint } from './denial-hint.ts';
export { ruleForCall, unmatchableReason } from './suggest.ts';
