import { describe, expect, test } from 'bun:test';
import { denialHint, parseRuleList, type PermissionCall, type PermissionPolicy } from '../../../src/tools/permissions/index.ts';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { bash, edit, fetchCall, policy, PROJECT, read } from './helpers.ts';

function hint(call: PermissionCall, p: PermissionPolicy): string {
  const decision = decideLoaded(call, p);
  if (decision.kind === 'allow') throw new Error('expected a refusal');
  return denialHint(call, decision);
}

describe('denialHint', () => {
  test('a command that needs approval names the exact and the prefix rule', () => {
    expect(hint(bash('rm -rf build'), policy())).toBe(
      'Permission denied: running "rm -rf build" needs approval, and moat -p cannot ask. To allow it, re-run with --allowedTools "Bash(rm -rf build)" (or "Bash(rm:*)"), or add the rule to [permissions] allow in .moat/config.toml.',
    );
  });

  test('only the uncovered parts of a chain are named', () => {
    expect(hint(bash('git status && npm test && make'), policy({ allow: ['Bash(git status:*)'] }))).toBe(
      'Permission denied: running "git status && npm test && make" needs approval, and moat -p cannot ask. To allow it, re-run with --allowedTools "Bash(npm test) Bash(make)" (or "Bash(npm test:*) Bash(make:*)"), or add the rules to [permissions] allow in .moat/config.toml.',
    );
  });

  test('rules with quotes are single-quoted for the shell', () => {
    expect(hint(bash('git commit -m "it\'s done"'), policy())).toBe(
      `Permission denied: running "git commit -m "it's done"" needs approval, and moat -p cannot ask. To allow it, re-run with --allowedTools 'Bash(git commit -m "it'\\''s done")' (or "Bash(git commit:*)"), or add the rule to [permissions] allow in .moat/config.toml.`,
    );
  });

  test('an edit also mentions acceptEdits', () => {
    expect(hint(edit(`${PROJECT}/src/a.ts`), policy())).toBe(
      `Permission denied: editing ${PROJECT}/src/a.ts needs approval, and moat -p cannot ask. To allow it, re-run with --permission-mode acceptEdits or --allowedTools "Edit(src/a.ts)" (or "Edit(src/**)"), or add the rule to [permissions] allow in .moat/config.toml.`,
    );
  });

  test('a redirection write mentions acceptEdits and the Edit rule', () => {
    expect(hint(bash('git log > log.txt'), policy({ allow: ['Bash(git log:*)'] }))).toBe(
      'Permission denied: running "git log > log.txt" needs approval, and moat -p cannot ask. To allow it, re-run with --permission-mode acceptEdits or --allowedTools "Edit(/log.txt)", or add the rule to [permissions] allow in .moat/config.toml.',
    );
  });

  test('a path outside the roots mentions --add-dir', () => {
    expect(hint(read('/etc/ssl/openssl.cnf'), policy())).toBe(
      'Permission denied: reading /etc/ssl/openssl.cnf needs approval because /etc/ssl/openssl.cnf is outside the allowed folders, and moat -p cannot ask. To allow it, re-run with --add-dir "/etc/ssl", or with --allowedTools "Read(//etc/ssl/openssl.cnf)" (or "Read(//etc/ssl/**)"), or add the rule to [permissions] allow in .moat/config.toml.',
    );
  });

  test('a deny rule is named, with where it was written', () => {
    expect(hint(bash('git push --force'), policy({ allow: ['Bash'], deny: ['Bash(git push:*)'] }))).toBe(
      'Permission denied: running "git push --force" is blocked by the deny rule "Bash(git push:*)" (one of this session\'s deny rules). Do not try to get around it; if it is needed, ask the user to change the rule.',
    );
    const fromFile = { ...policy({ allow: ['Bash'] }), deny: parseRuleList(['Bash(git push:*)']).map((r) => ({ ...r, source: '.claude/settings.json:4' })) };
    expect(hint(bash('git push --force'), fromFile)).toBe(
      'Permission denied: running "git push --force" is blocked by the deny rule "Bash(git push:*)" (from .claude/settings.json:4). Do not try to get around it; if it is needed, ask the user to change the rule.',
    );
  });

  test('plan mode says so', () => {
    expect(hint(edit(`${PROJECT}/a.ts`), policy({ mode: 'plan' }))).toBe(
      `Permission denied: moat is in plan mode, where only read-only tools may run, so editing ${PROJECT}/a.ts is not allowed. Finish the plan and present it; the user switches modes to carry it out.`,
    );
  });

  test('a command no rule can approve says why and how to rewrite it', () => {
    expect(hint(bash('echo `whoami`'), policy({ allow: ['Bash(echo:*)'] }))).toBe(
      'Permission denied: running "echo `whoami`" needs approval because it uses command substitution ($(…) or backticks), which no allow rule can pre-approve, and moat -p cannot ask. Rewrite it as plain commands (no $(…), backticks, <(…) or subshells; write files with the Edit or Write tool), or the user can re-run with --allowedTools "Bash" to allow every command.',
    );
    expect(hint(bash('git log > $OUT'), policy({ allow: ['Bash(git log:*)'] }))).toContain('because it writes to $OUT whose name is only known when it runs');
  });

  test('a web fetch names the domain rule', () => {
    expect(hint(fetchCall('example.com'), policy())).toBe(
      'Permission denied: fetching from example.com needs approval, and moat -p cannot ask. To allow it, re-run with --allowedTools "WebFetch(domain:example.com)" (or "WebFetch"), or add the rule to [permissions] allow in .moat/config.toml.',
    );
  });
});
