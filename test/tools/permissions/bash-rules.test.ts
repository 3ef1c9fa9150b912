import { describe, expect, test } from 'bun:test';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { bash, policy } from './helpers.ts';

const kind = (command: string, allow: string[], deny: string[] = [], mode: 'default' | 'acceptEdits' = 'default') =>
  decideLoaded(bash(command), policy({ allow, deny, mode })).kind;

describe('Bash allow rules cannot be stretched by chaining', () => {
  const allow = ['Bash(git status:*)'];
  const cases: [string, 'allow' | 'ask'][] = [
    ['git status', 'allow'],
    ['git status -s', 'allow'],
    ['git status && rm -rf x', 'ask'],
    ['git status; rm -rf x', 'ask'],
    ['git status || rm -rf x', 'ask'],
    ['git status | sh', 'ask'],
    ['git status |& sh', 'ask'],
    ['git status & rm -rf x', 'ask'],
    ['git status\nrm -rf x', 'ask'],
    ['git status $(rm -rf x)', 'ask'],
    ['git status `rm -rf x`', 'ask'],
    ['git status "$(rm -rf x)"', 'ask'],
    ['git status <(rm -rf x)', 'ask'],
    ["git status 'a;b'", 'allow'],
    ['git status "a && b"', 'allow'],
    ['git status a\\;b', 'allow'],
    ['git status "unbalanced', 'ask'],
    ['(git status; rm -rf x)', 'ask'],
    ['git statusx', 'ask'],
    ['git status\\\n && rm -rf x', 'ask'],
    ['git status # && rm -rf x', 'allow'],
    ['git status && git status -v', 'allow'],
    ['git status > out.txt', 'ask'],
    ['git status > /dev/null 2>&1', 'allow'],
    ['git status 2>/dev/null', 'allow'],
    ['git status >&2', 'allow'],
    ['sudo git status', 'ask'],
    ['$GIT status', 'ask'],
    ['git status\nEOF', 'ask'],
  ];
  for (const [command, expected] of cases) {
    test(`${JSON.stringify(command)} → ${expected}`, () => {
      expect(kind(command, allow)).toBe(expected);
    });
  }

  test('every part needs its own rule, and may use a different one', () => {
    expect(kind('git status && npm test', ['Bash(git status:*)', 'Bash(npm test:*)'])).toBe('allow');
    expect(kind('git log | head -5', ['Bash(git log:*)', 'Bash(head:*)'])).toBe('allow');
    expect(kind('git log | head -5', ['Bash(git log:*)'])).toBe('ask');
  });

  test('an exact rule for the whole chain covers the chain (what "allow always" stores)', () => {
    expect(kind('cd app  && npm test', ['Bash(cd app && npm test)'])).toBe('allow');
    expect(kind('cd app && npm test; rm x', ['Bash(cd app && npm test)'])).toBe('ask');
  });
});

describe('Bash rule forms', () => {
  test('prefix rules respect word boundaries', () => {
    expect(kind('npm test', ['Bash(npm test:*)'])).toBe('allow');
    expect(kind('npm test -- --watch', ['Bash(npm test:*)'])).toBe('allow');
    expect(kind('npm testing', ['Bash(npm test:*)'])).toBe('ask');
    expect(kind('npm testx', ['Bash(npm test:*)'])).toBe('ask');
  });

  test('exact rules match exactly, modulo spacing', () => {
    expect(kind('git  status', ['Bash(git status)'])).toBe('allow');
    expect(kind('git status -s', ['Bash(git status)'])).toBe('ask');
  });

  test('star wildcards, with an optional trailing " *"', () => {
    expect(kind('ls', ['Bash(ls *)'])).toBe('allow');
    expect(kind('ls -la', ['Bash(ls *)'])).toBe('allow');
    expect(kind('lsof', ['Bash(ls *)'])).toBe('ask');
    expect(kind('lsof', ['Bash(ls*)'])).toBe('allow');
    expect(kind('git push origin main', ['Bash(git * main)'])).toBe('allow');
    expect(kind('git push origin main && rm -rf main', ['Bash(git * main)'])).toBe('ask');
    expect(kind('echo *', ['Bash(echo \\*)'])).toBe('allow');
    expect(kind('echo x', ['Bash(echo \\*)'])).toBe('ask');
  });

  test('bare Bash allows everything, even what no specific rule could', () => {
    expect(kind('git status $(rm -rf x)', ['Bash'])).toBe('allow');
    expect(kind('git status $(rm -rf x)', ['Bash(*)'])).toBe('allow');
  });

  test('leading assignments: safe variables are ignored, others must be named', () => {
    expect(kind('NODE_ENV=test npm test', ['Bash(npm test:*)'])).toBe('allow');
    expect(kind('CI=1 LC_ALL=C npm test', ['Bash(npm test:*)'])).toBe('allow');
    expect(kind('FOO=1 npm test', ['Bash(npm test:*)'])).toBe('ask');
    expect(kind('PATH=. npm test', ['Bash(npm test:*)'])).toBe('ask');
    expect(kind('NODE_OPTIONS=--require=evil npm test', ['Bash(npm test:*)'])).toBe('ask');
    expect(kind('FOO=1 npm test', ['Bash(FOO=1 npm test)'])).toBe('allow');
    expect(kind('PATH=/tmp; npm test', ['Bash(npm test:*)'])).toBe('ask');
    expect(kind('NODE_ENV=x; npm test', ['Bash(npm test:*)'])).toBe('allow');
  });

  test('sudo is matched as written', () => {
    expect(kind('sudo npm test', ['Bash(npm test:*)'])).toBe('ask');
    expect(kind('sudo npm test', ['Bash(sudo npm test:*)'])).toBe('allow');
  });

  test('output redirection is a write: /dev/null is free, files follow the edit rules', () => {
    expect(kind('git log > log.txt', ['Bash(git log:*)'])).toBe('ask');
    expect(kind('git log > log.txt', ['Bash(git log:*)'], [], 'acceptEdits')).toBe('allow');
    expect(kind('git log > /tmp/log.txt', ['Bash(git log:*)'], [], 'acceptEdits')).toBe('ask');
    expect(kind('git log > /tmp/log.txt', ['Bash(git log:*)', 'Edit(//tmp/**)'])).toBe('allow');
    expect(kind('git log > log.txt', ['Bash(git log:*)', 'Edit(/log.txt)'])).toBe('allow');
    expect(kind('git log > log.txt', ['Bash(git log > log.txt)'])).toBe('allow');
    expect(kind('git log >> ../elsewhere.txt', ['Bash(git log:*)'], [], 'acceptEdits')).toBe('ask');
    expect(kind('git log > $OUT', ['Bash(git log:*)'], [], 'acceptEdits')).toBe('ask');
    expect(kind('cd /etc && git log > passwd', ['Bash(git log:*)', 'Bash(cd:*)'], [], 'acceptEdits')).toBe('ask');
    expect(kind('git log < in.txt', ['Bash(git log:*)'])).toBe('allow');
    // A wildcard rule does not cover the redirection even though its text would.
    expect(kind('npm run build > out.txt', ['Bash(npm run *)'])).toBe('ask');
  });

  test('here-documents with quoted delimiters are plain input', () => {
    expect(kind("git commit -F - <<'EOF'\nfix: x; rm -rf y\nEOF", ['Bash(git commit:*)'])).toBe('allow');
    expect(kind('git commit -F - <<EOF\n$(rm -rf y)\nEOF', ['Bash(git commit:*)'])).toBe('ask');
  });
});

describe('Bash deny rules', () => {
  const deny = ['Bash(rm:*)'];
  const denied = [
    'rm -rf x',
    'git status && rm -rf x',
    'git status; rm -rf x',
    'git status || rm -rf x',
    'git status | rm -rf x',
    'git status & rm -rf x',
    'git status\nrm -rf x',
    'git status $(rm -rf x)',
    'git status `rm -rf x`',
    'echo "$(rm -rf x)"',
    'diff <(rm -rf x) y',
    'echo "unbalanced; rm -rf x',
    'sudo rm -rf /',
    'sudo -u root rm -rf /',
    'env FOO=1 rm x',
    'FOO=1 rm x',
    'timeout 10 rm x',
    'nice -n 5 rm x',
    'nohup rm x &',
    'xargs -n 1 rm < list',
    'find . -name "*.o" -exec rm {} \\;',
    'bash -c "rm -rf x"',
    "sh -c 'echo hi; rm -rf x'",
    'eval "rm -rf x"',
    '/bin/rm -rf x',
    '"rm" -rf x',
    'r\\m -rf x',
    'if true; then rm -rf x; fi',
    '(rm -rf x)',
    'cat <<EOF\n$(rm -rf x)\nEOF',
  ];
  for (const command of denied) {
    test(`denies ${JSON.stringify(command)}`, () => {
      expect(decideLoaded(bash(command), policy({ allow: ['Bash'], deny, mode: 'default' }))).toEqual({
        kind: 'deny',
        reason: 'denied by the rule "Bash(rm:*)"',
        rule: 'Bash(rm:*)',
      });
    });
  }

  const notDenied = ['git rm file', 'echo rm', 'grep -r rm .', 'rmdir x', "git commit -m 'rm -rf x'"];
  for (const command of notDenied) {
    test(`does not deny ${JSON.stringify(command)}`, () => {
      expect(kind(command, ['Bash'], deny)).toBe('allow');
    });
  }

  test('deny beats allow and bypass', () => {
    expect(decideLoaded(bash('git push --force'), policy({ allow: ['Bash'], deny: ['Bash(git push:*)'], mode: 'bypassPermissions' })).kind).toBe('deny');
    expect(kind('anything', ['Bash'], ['Bash'])).toBe('deny');
  });

  test('Edit deny rules catch redirection targets', () => {
    expect(decideLoaded(bash('echo KEY=1 > .env'), policy({ allow: ['Bash'], deny: ['Edit(.env)'] }))).toEqual({
      kind: 'deny',
      reason: 'denied by the rule "Edit(.env)"',
      rule: 'Edit(.env)',
    });
    expect(kind('echo $(date) >> config/.env', ['Bash'], ['Edit(.env)'])).toBe('deny');
  });
});

describe('commands whose name is only known at run time', () => {
  test('ANSI-C quoting is decoded for deny rules', () => {
    expect(kind("$'\\x72m' -rf x", ['Bash'], ['Bash(rm:*)'])).toBe('deny');
    expect(kind("r$'m' -rf x", ['Bash'], ['Bash(rm:*)'])).toBe('deny');
  });

  test('with Bash deny rules in force, a bare Bash allow asks instead of guessing', () => {
    expect(decideLoaded(bash('$X -rf x'), policy({ allow: ['Bash'], deny: ['Bash(rm:*)'] }))).toEqual({
      kind: 'ask',
      reason: 'running "$X -rf x" needs approval: a command name in it is only known when it runs, so the deny rules cannot be checked',
      cause: 'unmatchable_command',
      outsidePaths: [],
      rules: [],
      broaderRules: [],
      acceptEditsWouldAllow: false,
    });
    expect(kind('echo $(/bin/r? -rf x)', ['Bash'], ['Bash(rm:*)'])).toBe('ask');
    expect(kind('sudo $X -rf x', ['Bash'], ['Bash(rm:*)'])).toBe('ask');
    expect(kind('$X -rf x', ['Bash'], ['Read(.env)'])).toBe('allow');
    expect(kind('$X -rf x', ['Bash'])).toBe('allow');
  });
});
