import { describe, expect, test } from 'bun:test';
import { ruleForCall, unmatchableReason, type PermissionCall } from '../../../src/tools/permissions/index.ts';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { bash, edit, fetchCall, HOME, policy, PROJECT, read } from './helpers.ts';

const task: PermissionCall = { toolName: 'task', effect: 'execute', intent: { ruleName: 'Task', subject: 'explore', paths: [], summary: 'x' } };
const todo: PermissionCall = { toolName: 'todo_write', effect: 'write', intent: { ruleName: 'TodoWrite', paths: [], summary: 'x' } };

const cases: [string, PermissionCall, string][] = [
  ['npm script', bash('npm run test -- --watch'), 'Bash(npm run test:*)'],
  ['git subcommand', bash('git status -s'), 'Bash(git status:*)'],
  ['plain command', bash('ls -la src'), 'Bash(ls:*)'],
  ['option right after the tool', bash('git -C x status'), 'Bash(git:*)'],
  ['risky command stays exact', bash('rm -rf build'), 'Bash(rm -rf build)'],
  ['interpreter stays exact', bash('python3 -c "print(1)"'), 'Bash(python3 -c "print\\(1\\)")'],
  ['redirection stays exact', bash('git log > out.txt'), 'Bash(git log >out.txt)'],
  ['assignments stay exact', bash('FOO=1 npm test'), 'Bash(FOO=1 npm test)'],
  ['chains are stored whole', bash('cd app  &&  npm test'), 'Bash(cd app && npm test)'],
  ['stars are escaped', bash('rm *.log'), 'Bash(rm \\*.log)'],
  ['edit in a folder', edit(`${PROJECT}/src/lib/a.ts`), 'Edit(src/lib/**)'],
  ['edit at the project root', edit(`${PROJECT}/a.ts`), 'Edit(/a.ts)'],
  ['read outside', read('/etc/ssl/openssl.cnf'), 'Read(//etc/ssl/**)'],
  ['read at /', read('/hosts'), 'Read(//hosts)'],
  ['read at home', read(`${HOME}/.npmrc`), 'Read(~/.npmrc)'],
  ['read under home', read(`${HOME}/.config/x/y.toml`), 'Read(~/.config/x/**)'],
  ['odd file names are escaped', edit(`${PROJECT}/docs/a[1](x).md`), 'Edit(docs/**)'],
  ['odd file name at the root', edit(`${PROJECT}/a*(1).md`), 'Edit(/a\\*\\(1\\).md)'],
  ['web fetch', fetchCall('Docs.Example.com'), 'WebFetch(domain:docs.example.com)'],
  ['subject tool', task, 'Task(explore)'],
  ['bare tool', todo, 'TodoWrite'],
];

describe('ruleForCall', () => {
  for (const [name, call, rule] of cases) {
    test(`${name}: ${rule}`, () => {
      expect(ruleForCall(call, PROJECT, HOME)).toBe(rule);
    });
  }

  test('every stored rule parses back and allows the call it was made for', () => {
    for (const [, call] of cases) {
      const rule = ruleForCall(call, PROJECT, HOME);
      expect({ rule, kind: decideLoaded(call, policy({ allow: [rule] })).kind }).toEqual({ rule, kind: 'allow' });
    }
  });

  test('a command no rule can approve is recognisable beforehand', () => {
    expect(unmatchableReason('echo $(id)')).toBe('it uses command substitution ($(…) or backticks)');
    expect(unmatchableReason('$X -rf')).toBe('its command name $X is only known when it runs');
    expect(unmatchableReason('git status')).toBeNull();
    const rule = ruleForCall(bash('echo $(id)'), PROJECT, HOME);
    expect(rule).toBe('Bash(echo $\\(id\\))');
    expect(decideLoaded(bash('echo $(id)'), policy({ allow: [rule] })).kind).toBe('ask');
  });
});
