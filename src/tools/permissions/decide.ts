/** The permission decision for one call: rules, mode and sandbox grants. */
import { dirname } from 'node:path';
import type { PermissionMode, SandboxGrant } from '../../contracts/index.ts';
import { isWithin } from '../../util/index.ts';
import { checkBashAllow, type CommandRule } from './bash-allow.ts';
import { denyView } from './bash-deny.ts';
import { loadShellParser } from './bash-parser.ts';
import { normalizeSpaces } from './command-pattern.ts';
import { protectedEntry } from './protected-paths.ts';
import type { PathBases } from './path-pattern.ts';
import {
  allowRuleCoversPath,
  allowRuleMatches,
  callPaths,
  callRuleName,
  denyRuleMatches,
  hostOf,
  type PermissionCall,
} from './rule-match.ts';
import type { Rule } from './rule.ts';
import { nameMatches } from './tool-names.ts';
import { commandRules, escapeCommandSpec, folderRule, pathRule } from './suggest.ts';


export interface PermissionPolicy {
  mode: PermissionMode;
  allow: Rule[];
  deny: Rule[];
  /** Ask rules: matched like deny rules (every command the parser finds), they ask instead. */
  ask?: Rule[];
  /** Real paths of the folders tools may touch (project root + --add-dir). */
  roots: string[];
  projectRoot: string;
  home: string;
  /**
   * Bash runs inside the OS sandbox (on, and working on this machine). The
   * mode then picks the sandbox's grants instead of asking for every command.
   */
  osSandbox?: boolean;
}

/** Why a call needs a person's approval. */
export type AskCause =
  /** It touches paths outside the roots that no rule approves. */
  | 'outside_roots'
  /** Nothing in the rules or the mode allows it. */
  | 'needs_approval'
  /** A Bash line no rule can pre-approve ($(…), unbalanced quotes, …). */
  | 'unmatchable_command'
  /** A sandboxed command asks for more than the mode grants (workspace-write, or no sandbox). */
  | 'sandbox_grant'
  /** An ask rule (`permissions.ask`) matches: always a person's call, whatever allows it. */
  | 'ask_rule'
  /** A file tool writes a protected path (git's config or hooks, the project's settings…): always a person's call. */
  | 'protected_path';

export type Decision =
  | {
      kind: 'allow';
      reason: string;
      /** Paths outside the roots that a rule (or bypass mode) approved: the runner passes them to the tool. */
      approvedPaths: string[];
      /** For a command under the OS sandbox: the grants it runs with. */
      sandbox?: SandboxGrant;
    }
  | {
      kind: 'deny';
      reason: string;
      /** The deny rule that hit, as written; absent when plan mode refused the call. */
      rule?: string;
      /** Where that rule was written (`.claude/settings.json:4`, `--disallowedTools`), when known. */
      source?: string;
    }
  | {
      kind: 'ask';
      reason: string;
      cause: AskCause;
      /** Outside paths no rule approves (cause `outside_roots`). */
      outsidePaths: string[];
      /** Rules that, added to the allow list together, would allow the call. Empty when none can. */
      rules: string[];
      /** Broader alternatives to `rules` (prefix or folder rules), possibly empty. */
      broaderRules: string[];
      /** True when `--permission-mode acceptEdits` alone would allow the call. */
      acceptEditsWouldAllow: boolean;
      /** Cause `sandbox_grant`: what the command asks for. */
      sandboxGrant?: 'workspace-write' | 'off';
    };

type Ask = Extract<Decision, { kind: 'ask' }>;

function ask(reason: string, cause: AskCause, extra: Partial<Omit<Ask, 'kind' | 'reason' | 'cause'>> = {}): Ask {
  return {
    kind: 'ask',
    reason,
    cause,
    outsidePaths: extra.outsidePaths ?? [],
    rules: extra.rules ?? [],
    broaderRules: extra.broaderRules ?? [],
    acceptEditsWouldAllow: extra.acceptEditsWouldAllow ?? false,
    ...(extra.sandboxGrant === undefined ? {} : { sandboxGrant: extra.sandboxGrant }),
  };
}

function insideRoots(roots: readonly string[], p: string): boolean {
  return roots.some((r) => isWithin(r, p));
}

function unique(items: (string | null)[]): string[] {
  return [...new Set(items.filter((i): i is string => i !== null))];
}

/**
 * The engine's one entry: loads what deciding `call` needs (the bash grammar,
 * for a Bash call; the first one waits about 0.1 s for it), then decides.
 * Once it has returned for a call, the synchronous helpers that read the same
 * call (denialHint, ruleForCall, unmatchableReason) have what they need.
 */
export async function decidePermission(call: PermissionCall, policy: PermissionPolicy): Promise<Decision> {
  if (callRuleName(call) === 'Bash') await loadShellParser();
  return decideLoaded(call, policy);
}

/**
 * Decide one call, in this order:
 * 1. a matching deny rule denies (in every mode, bypass included);
 *    then a matching ask rule asks (except in bypassPermissions);
 * 2. plan mode denies anything but reads (the backstop: such tools are not offered);
 * 3. bypassPermissions allows;
 * 4. paths outside the roots need an allow rule for that path and access, else ask;
 * 5. a matching allow rule allows;
 * 6. by effect: read allows; write allows in acceptEdits and asks otherwise;
 *    execute and network ask.
 * "Outside the roots" is lexical here; tools check real paths when they run.
 * The synchronous core, for the decision tables' tests (which load the grammar
 * once up front); it is not in the engine's index: code decides through decidePermission.
 */
export function decideLoaded(call: PermissionCall, policy: PermissionPolicy): Decision {
  const decision = decideAsked(call, policy);
  if (decision.kind === 'ask' && policy.mode === 'dontAsk') {
    return { kind: 'deny', reason: `dontAsk mode denies what it would otherwise ask: ${decision.reason}` };
  }
  return decision;
}

function decideAsked(call: PermissionCall, policy: PermissionPolicy): Decision {
  const bases: PathBases = { projectRoot: policy.projectRoot, home: policy.home };
  const name = callRuleName(call);

  const denied = policy.deny.find((rule) => denyRuleMatches(rule, call, bases));
  if (denied) return { kind: 'deny', reason: `denied by the rule "${denied.text}"${denied.source === undefined ? '' : ` in ${denied.source}`}`, rule: denied.text, ...(denied.source === undefined ? {} : { source: denied.source }) };

  const asked = policy.mode === 'bypassPermissions' ? undefined : policy.ask?.find((rule) => denyRuleMatches(rule, call, bases));
  if (asked) {
    // Plan mode still refuses what it never runs; otherwise a person decides, once (no "always" rule is offered).
    if (policy.mode === 'plan' && call.effect !== 'read' && !(name === 'Bash' && policy.osSandbox === true)) {
      return { kind: 'deny', reason: `plan mode allows only read-only tools, and ${call.toolName} is not one` };
    }
    return ask(`the rule "${asked.text}" asks before ${call.toolName} runs`, 'ask_rule');
  }

  if (name === 'Bash' && policy.osSandbox === true && call.intent.subject !== undefined) {
    return decideSandboxedBash(call, call.intent.subject, policy, bases);
  }

  if (policy.mode === 'plan' && call.effect !== 'read') {
    return { kind: 'deny', reason: `plan mode allows only read-only tools, and ${call.toolName} is not one` };
  }

  const paths = callPaths(call, bases);
  // What the OS sandbox never lets a command write, a file tool writes only when a person says yes (no rule or mode does).
  if (policy.mode !== 'bypassPermissions' && name !== 'Bash') {
    const hits = unique(paths.map((p) => (p.access === 'write' && protectedEntry(p.path, policy.roots) !== undefined ? p.path : null)));
    if (hits.length > 0) {
      return ask(`${call.toolName} would write ${hits.join(', ')}, which moat protects (git's config and hooks, the project's settings, commands, agents and skills, .moat/, .mcp.json, .agents/: writing them changes what runs or is allowed next)`, 'protected_path');
    }
  }
  const outside = paths.filter((p) => !insideRoots(policy.roots, p.path));
  if (policy.mode === 'bypassPermissions') {
    return { kind: 'allow', reason: 'bypassPermissions mode', approvedPaths: unique(outside.map((p) => p.path)) };
  }

  const uncoveredOutside = outside.filter(
    (p) => !policy.allow.some((rule) => allowRuleCoversPath(rule, call, p.path, p.access, bases)),
  );
  if (uncoveredOutside.length > 0) {
    const list = unique(uncoveredOutside.map((p) => p.path));
    return ask(`${list.join(', ')} ${list.length === 1 ? 'is' : 'are'} outside the allowed folders`, 'outside_roots', {
      outsidePaths: list,
      rules: unique(uncoveredOutside.map((p) => pathRule(p.access === 'read' ? 'Read' : 'Edit', p.path, bases))),
      broaderRules: unique(uncoveredOutside.map((p) => folderRule(p.access === 'read' ? 'Read' : 'Edit', [p.path], bases))),
    });
  }
  const approvedPaths = unique(outside.map((p) => p.path));

  if (name === 'Bash' && call.intent.subject !== undefined) return decideBash(call, call.intent.subject, policy, bases, approvedPaths);

  const allowed = policy.allow.find((rule) => allowRuleMatches(rule, call, bases));
  if (allowed) return { kind: 'allow', reason: `allowed by the rule "${allowed.text}"`, approvedPaths };

  return decideByEffect(call, policy, bases, approvedPaths);
}

function decideByEffect(call: PermissionCall, policy: PermissionPolicy, bases: PathBases, approvedPaths: string[]): Decision {
  const name = callRuleName(call);
  const subject = call.intent.subject;
  switch (call.effect) {
    case 'read':
      return { kind: 'allow', reason: 'read-only', approvedPaths };
    case 'write': {
      if (policy.mode === 'acceptEdits') return { kind: 'allow', reason: 'acceptEdits mode', approvedPaths };
      const written = callPaths(call, bases).map((p) => p.path);
      const ruleName = name === 'Edit' ? 'Edit' : null;
      return ask(`${call.toolName} changes files and needs approval`, 'needs_approval', {
        rules: ruleName ? unique(written.map((p) => pathRule(ruleName, p, bases))) : [name],
        broaderRules: ruleName ? unique([folderRule(ruleName, written, bases)]) : [],
        acceptEditsWouldAllow: true,
      });
    }
    case 'execute':
    case 'network': {
      const rules =
        name === 'WebFetch' && subject !== undefined
          ? [`WebFetch(domain:${hostOf(subject)})`]
          : subject !== undefined && subject !== '' && name !== 'Bash'
            ? [`${name}(${subject.replace(/[()\\]/g, '\\$&')})`]
            : [name];
      const broaderRules = rules[0] === name ? [] : [name];
      return ask(`${call.toolName} needs approval`, 'needs_approval', { rules, broaderRules });
    }
  }
}

function decideBash(call: PermissionCall, line: string, policy: PermissionPolicy, bases: PathBases, approvedPaths: string[]): Decision {
  const bare = policy.allow.find((rule) => rule.type === 'tool' && nameMatches(rule.ruleName, 'Bash'));
  if (bare) {
    // `$CMD -rf x` may be the very command a deny rule forbids; with such rules in force, a person decides.
    if (policy.deny.some((r) => r.type === 'command') && denyView(line).opaque) {
      return ask(`running "${line.trim()}" needs approval: a command name in it is only known when it runs, so the deny rules cannot be checked`, 'unmatchable_command');
    }
    return { kind: 'allow', reason: `allowed by the rule "${bare.text}"`, approvedPaths };
  }

  const commandRulesList: CommandRule[] = policy.allow.flatMap((r) => (r.type === 'command' ? [{ text: r.text, pattern: r.pattern }] : []));
  const check = checkBashAllow(line, commandRulesList, call.intent.cwd ?? policy.projectRoot);
  if (check.type === 'unmatchable') {
    return ask(`running "${line.trim()}" needs approval: ${check.reasons.join('; ')}`, 'unmatchable_command');
  }

  const uncoveredRules = check.uncovered.map(commandRules);
  if (check.unknownWrites.length > 0) {
    return ask(`running "${line.trim()}" needs approval: it writes to ${check.unknownWrites.join(', ')}, which is only known when it runs`, 'unmatchable_command');
  }
  // Redirection targets are writes: allowed where an edit would be.
  const unapprovedWrites = check.writes.filter((p) => {
    const inside = insideRoots(policy.roots, p);
    if (inside && policy.mode === 'acceptEdits') return false;
    return !policy.allow.some((rule) => allowRuleCoversPath(rule, { ...call, intent: { ...call.intent, ruleName: 'Edit' } }, p, 'write', bases));
  });
  if (uncoveredRules.length === 0 && unapprovedWrites.length === 0) {
    const reason = check.matched.length > 0 ? `allowed by ${check.matched.map((m) => `"${m}"`).join(', ')}` : 'nothing to run';
    // Redirection targets outside the roots were approved by rules; the tool needs no path list for them.
    return { kind: 'allow', reason, approvedPaths };
  }

  const parts = check.uncovered.map((c) => c.words.map((w) => w.raw).join(' '));
  const what = [
    ...(parts.length > 0 ? [`${parts.map((p) => `"${p}"`).join(', ')} ${parts.length === 1 ? 'is' : 'are'} not covered by an allow rule`] : []),
    ...(unapprovedWrites.length > 0 ? [`it writes ${unapprovedWrites.join(', ')}`] : []),
  ];
  const writeRules = unapprovedWrites.map((p) => pathRule('Edit', p, bases));
  return ask(`running "${line.trim()}" needs approval: ${what.join(', and ')}`, 'needs_approval', {
    rules: unique([...uncoveredRules.map((r) => r.exact), ...writeRules]),
    broaderRules: unique(uncoveredRules.map((r) => r.prefix)),
    acceptEditsWouldAllow: uncoveredRules.length === 0 && unapprovedWrites.every((p) => insideRoots(policy.roots, p)),
  });
}

/**
 * A command under the OS sandbox: the kernel holds the boundary, so the mode
 * chooses its grants instead of asking about every command. Deny rules have
 * already refused what they match.
 * - plan: the read-only sandbox, nothing more;
 * - default: the read-only sandbox without asking; an allow rule matching the
 *   command gives workspace-write; asking for workspace-write or no sandbox asks;
 * - acceptEdits: workspace-write without asking; no sandbox asks;
 * - bypassPermissions: workspace-write without asking; it never removes the
 *   sandbox (only `[sandbox] mode = "off"` does).
 */
function decideSandboxedBash(call: PermissionCall, line: string, policy: PermissionPolicy, bases: PathBases): Decision {
  const requested = call.intent.sandboxRequest;
  const command = `"${line.trim()}"`;
  const allow = (sandbox: SandboxGrant, reason: string): Decision => ({ kind: 'allow', reason, approvedPaths: [], sandbox });
  switch (policy.mode) {
    case 'plan':
      if (requested === undefined) return allow('read-only', 'plan mode: the read-only sandbox');
      return { kind: 'deny', reason: `plan mode runs commands only in the read-only sandbox, so ${command} cannot have ${requested === 'off' ? 'the sandbox removed' : 'write access'}` };
    case 'bypassPermissions':
      if (requested === 'off') return { kind: 'deny', reason: 'bypassPermissions removes prompts, not the OS sandbox; only [sandbox] mode = "off" in the user config turns it off' };
      return allow('workspace-write', 'bypassPermissions mode: the workspace-write sandbox');
    case 'acceptEdits':
      if (requested !== 'off') return allow('workspace-write', 'acceptEdits mode: the workspace-write sandbox');
      break;
    case 'default':
    case 'dontAsk':
      break;
  }
  // "Always" on a sandbox: "off" request stores the exact command line (permission-gate.ts), as Claude Code and
  // Codex remember an approved unsandboxed command: that rule runs it unsandboxed again without asking. Only an
  // exact rule for the whole line does; a prefix rule (`Bash(npm test:*)`) keeps meaning workspace-write.
  if (requested === 'off') {
    const whole = normalizeSpaces(line);
    const exact = policy.allow.find((r) => r.type === 'command' && r.pattern.type === 'exact' && r.pattern.line === whole);
    if (exact) return allow('off', `allowed outside the sandbox by the rule "${exact.text}"`);
  }
  // What an allow rule says about the command, by the same parsing as without the sandbox.
  const parsed = decideBash(call, line, { ...policy, mode: 'default' }, bases, []);
  if (requested !== 'off' && parsed.kind === 'allow') return allow('workspace-write', parsed.reason);
  if (requested === undefined) return allow('read-only', 'the read-only sandbox');
  // For "off" the one rule that allows it again is the exact whole line (above); "always" stores that one.
  const rules = requested === 'off' ? [`Bash(${escapeCommandSpec(normalizeSpaces(line))})`] : parsed.kind === 'ask' ? parsed.rules : [];
  const broaderRules = requested !== 'off' && parsed.kind === 'ask' ? parsed.broaderRules : [];
  const what = requested === 'off' ? 'to run outside the OS sandbox' : 'write access to the working folder';
  return ask(`running ${command} asks for ${what}`, 'sandbox_grant', { rules, broaderRules, acceptEditsWouldAllow: requested === 'workspace-write', sandboxGrant: requested });
}

/** The folder `--add-dir` should name for a path outside the roots: its parent, unless that is `/`. */
export function addDirFor(path: string): string {
  const parent = dirname(path);
  return parent === dirname(parent) ? path : parent;
}
