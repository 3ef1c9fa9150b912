/** Matches rules against one tool call. */
import { resolve } from 'node:path';
import type { Access, CallIntent, Effect } from '../types.ts';
import { expansionPattern } from './argument-words.ts';
import { argumentWrites, redirectionWrites } from './bash-allow.ts';
import { denyView, type ArgumentWrites } from './bash-deny.ts';
import { commandPatternMatches } from './command-pattern-match.ts';
import type { PathBases, PathPattern } from './path-pattern.ts';
import { pathPatternMatches } from './path-pattern-match.ts';
import { canonicalRuleName } from './rule-names.ts';
import { domainMatches, type Rule } from './rule.ts';
import { nameMatches } from './tool-names.ts';

/** One tool call as the permission engine sees it. */
export interface PermissionCall {
  toolName: string;
  effect: Effect;
  intent: CallIntent;
}

/** The rule name a call is matched under: the intent's, or else the tool's, canonicalised. */
export function callRuleName(call: PermissionCall): string {
  return canonicalRuleName(call.intent.ruleName || call.toolName);
}

/** The access a path rule governs: Read rules reads, Edit rules writes. */
export function ruleAccess(rule: { ruleName: 'Read' | 'Edit' }): Access {
  return rule.ruleName === 'Read' ? 'read' : 'write';
}

/**
 * The paths a call touches, for path rules. File tools list them in the intent;
 * should one give only a subject, the subject is taken as a path under the
 * project root.
 */
export function callPaths(call: PermissionCall, bases: PathBases): CallIntent['paths'] {
  if (call.intent.paths.length > 0) return call.intent.paths;
  const name = callRuleName(call);
  const subject = call.intent.subject;
  if ((name === 'Read' || name === 'Edit') && subject) {
    return [{ path: resolve(bases.projectRoot, subject), access: name === 'Read' ? 'read' : 'write' }];
  }
  return [];
}

/** The host a WebFetch subject names: the subject itself, or the host of a URL. Lower case. */
export function hostOf(subject: string): string {
  if (subject.includes('://')) {
    try {
      return new URL(subject).hostname.toLowerCase();
    } catch {
      return subject.toLowerCase();
    }
  }
  return subject.toLowerCase();
}

/**
 * Does a deny rule hit this call? Conservative everywhere: a Bash rule is tried
 * on every recognisable part and wrapper-free form of the command, and a path
 * rule on every path of matching access whatever the tool, compared without
 * regard to case.
 */
export function denyRuleMatches(rule: Rule, call: PermissionCall, bases: PathBases): boolean {
  const name = callRuleName(call);
  const subject = call.intent.subject;
  switch (rule.type) {
    case 'tool':
      return nameMatches(rule.ruleName, name);
    case 'command':
      if (name !== 'Bash' || subject === undefined) return false;
      return denyView(subject).forms.some((form) => commandPatternMatches(rule.pattern, form));
    case 'path': {
      const access = ruleAccess(rule);
      const paths = callPaths(call, bases)
        .filter((p) => p.access === access)
        .map((p) => p.path);
      // A shell redirection, `sed -i` or awk's `print > "f"` writes a file as surely as the Edit tool does.
      if (access === 'write' && name === 'Bash' && subject !== undefined) {
        // Relative targets resolve where the command runs (a sub-folder), not at the project root.
        const cwd = call.intent.cwd ?? bases.projectRoot;
        paths.push(...redirectionWrites(subject, cwd), ...argumentWrites(subject, cwd));
        // A file only known when the command runs may be the one the rule protects: the rule cannot vouch, so it holds.
        if (hiddenWriteMayMatch(rule.pattern, denyView(subject).argumentWrites, cwd)) return true;
      }
      return paths.some((p) => pathPatternMatches(rule.pattern, p, bases, true));
    }
    case 'domain':
      return name === 'WebFetch' && subject !== undefined && domainMatches(rule.domain, hostOf(subject));
    case 'subject':
      return nameMatches(rule.ruleName, name) && subject !== undefined && rule.regex.test(subject);
  }
}

/**
 * Could a file that find, sed or awk write, known only when they run
 * (`sed -i … *.txt`, `sed -i … "$F"`, `awk '{print > f}'`), be one that a
 * write deny rule protects? Then the rule cannot vouch that the command
 * leaves its files alone, as a command deny rule cannot for a command name
 * known only at run time. That case asks before a bare `Bash` rule allows
 * it, but an exact allow rule or bypass mode would still let this write
 * through unchecked, so here the rule holds and the command is denied.
 * The doubt is narrowed for the commonest kind of rule, a plain name
 * (`.env`, `id_rsa`), which gitignore matches against each folder and file
 * name in a path: a glob expands within one name, so `src/*.ts` can never
 * name `.env`, while `*`, `.e*` or `$F` can.
 */
function hiddenWriteMayMatch(pattern: PathPattern, writes: ArgumentWrites, cwd: string): boolean {
  if (writes.shapes === null) return true;
  if (writes.shapes.length === 0) return false;
  if (!PLAIN_NAME.test(pattern.glob)) return true;
  return writes.shapes.some((shape) => {
    // A variable or `~` may become any path, several folders deep; so may a brace that holds a `/` (`{a,b/.env}`).
    if (/[$`]/.test(shape) || shape.startsWith('~') || /\{[^}]*\//.test(shape)) return true;
    // Deny rules compare names without regard to case.
    return resolve(cwd, shape).split('/').some((name) => new RegExp(expansionPattern(name).source, 'si').test(pattern.glob));
  });
}

/** A rule that is one plain file or folder name, with nothing gitignore would read as a wildcard, anchor or escape. */
const PLAIN_NAME = /^[A-Za-z0-9._+@-]+$/;

/**
 * Does an allow rule cover the whole of a (non-Bash) call? Path rules need
 * every path of the call to match, case-sensitively. Bash commands are
 * checked part by part elsewhere (bash-allow.ts).
 */
export function allowRuleMatches(rule: Rule, call: PermissionCall, bases: PathBases): boolean {
  const name = callRuleName(call);
  const subject = call.intent.subject;
  switch (rule.type) {
    case 'tool':
      return nameMatches(rule.ruleName, name);
    case 'command':
      return false;
    case 'path': {
      if (rule.ruleName !== name) return false;
      const paths = callPaths(call, bases);
      return paths.length > 0 && paths.every((p) => pathPatternMatches(rule.pattern, p.path, bases, false));
    }
    case 'domain':
      return name === 'WebFetch' && subject !== undefined && domainMatches(rule.domain, hostOf(subject));
    case 'subject':
      return nameMatches(rule.ruleName, name) && subject !== undefined && rule.regex.test(subject);
  }
}

/**
 * Does an allow rule approve touching `path` with `access`, wherever it is?
 * A path rule of that access does (for any tool), and so does a bare rule for
 * the calling tool: `--allowedTools Read` allows every read.
 */
export function allowRuleCoversPath(
  rule: Rule,
  call: PermissionCall,
  path: string,
  access: Access,
  bases: PathBases,
): boolean {
  if (rule.type === 'tool') return nameMatches(rule.ruleName, callRuleName(call));
  if (rule.type !== 'path' || ruleAccess(rule) !== access) return false;
  return pathPatternMatches(rule.pattern, path, bases, false);
}
