import { PERMISSION_MODES } from '../../../src/contracts/index.ts';
import { describe, expect, test } from 'bun:test';
import { type PermissionCall } from '../../../src/tools/permissions/index.ts';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { bash, edit, fetchCall, grep, HOME, policy, PROJECT, read } from './helpers.ts';

describe('mode × effect, no rules, paths inside the roots', () => {
  const calls: Record<string, PermissionCall> = {
    read: read(`${PROJECT}/a.ts`),
    write: edit(`${PROJECT}/a.ts`),
    execute: bash('make'),
    network: fetchCall('example.com'),
  };
  const table: Record<string, Record<string, 'allow' | 'ask' | 'deny'>> = {
    default: { read: 'allow', write: 'ask', execute: 'ask', network: 'ask' },
    acceptEdits: { read: 'allow', write: 'allow', execute: 'ask', network: 'ask' },
    plan: { read: 'allow', write: 'deny', execute: 'deny', network: 'deny' },
    bypassPermissions: { read: 'allow', write: 'allow', execute: 'allow', network: 'allow' },
    // What default would ask is denied: nothing waits for a person.
    dontAsk: { read: 'allow', write: 'deny', execute: 'deny', network: 'deny' },
  };
  test('covers every mode', () => {
    expect(Object.keys(table).sort()).toEqual([...PERMISSION_MODES].sort());
  });
  for (const mode of PERMISSION_MODES) {
    test(mode, () => {
      const got = Object.fromEntries(Object.entries(calls).map(([effect, call]) => [effect, decideLoaded(call, policy({ mode })).kind]));
      expect(got).toEqual(table[mode] ?? {});
    });
  }
});

describe('decisions in detail', () => {
  test('plan mode denies with a reason and no rule', () => {
    expect(decideLoaded(edit(`${PROJECT}/a.ts`), policy({ mode: 'plan', allow: ['Edit'] }))).toEqual({
      kind: 'deny',
      reason: 'plan mode allows only read-only tools, and Edit is not one',
    });
  });

  test('an edit in default mode asks, suggesting the path rule, its folder and acceptEdits', () => {
    expect(decideLoaded(edit(`${PROJECT}/src/lib/a.ts`), policy())).toEqual({
      kind: 'ask',
      reason: 'Edit changes files and needs approval',
      cause: 'needs_approval',
      outsidePaths: [],
      rules: ['Edit(src/lib/a.ts)'],
      broaderRules: ['Edit(src/lib/**)'],
      acceptEditsWouldAllow: true,
    });
  });

  test('allow rules for paths, relative to the project root', () => {
    const p = policy({ allow: ['Edit(src/**)'] });
    expect(decideLoaded(edit(`${PROJECT}/src/a.ts`), p)).toEqual({
      kind: 'allow',
      reason: 'allowed by the rule "Edit(src/**)"',
      approvedPaths: [],
    });
    expect(decideLoaded(edit(`${PROJECT}/test/a.ts`), p).kind).toBe('ask');
    // Claude Code's `/path` is the project root too.
    expect(decideLoaded(edit(`${PROJECT}/src/a.ts`), policy({ allow: ['Edit(/src/**)'] })).kind).toBe('allow');
    // A slash-free pattern matches at any depth, as in .gitignore.
    expect(decideLoaded(edit(`${PROJECT}/a/b/c.md`), policy({ allow: ['Edit(*.md)'] })).kind).toBe('allow');
    // Allow rules are case-sensitive.
    expect(decideLoaded(edit(`${PROJECT}/SRC/a.ts`), p).kind).toBe('ask');
  });

  test('a call whose paths are only partly covered is not allowed by the rule', () => {
    expect(decideLoaded(edit(`${PROJECT}/src/a.ts`, `${PROJECT}/b.ts`), policy({ allow: ['Edit(src/**)'] })).kind).toBe('ask');
  });

  test('paths outside the roots ask, naming the paths, unless a rule of the same access covers them', () => {
    expect(decideLoaded(read('/etc/hosts'), policy())).toEqual({
      kind: 'ask',
      reason: '/etc/hosts is outside the allowed folders',
      cause: 'outside_roots',
      outsidePaths: ['/etc/hosts'],
      rules: ['Read(//etc/hosts)'],
      broaderRules: ['Read(//etc/**)'],
      acceptEditsWouldAllow: false,
    });
    expect(decideLoaded(read('/etc/hosts'), policy({ allow: ['Read(//etc/**)'] }))).toEqual({
      kind: 'allow',
      reason: 'allowed by the rule "Read(//etc/**)"',
      approvedPaths: ['/etc/hosts'],
    });
    // `x/**` also covers the folder x itself (to list it).
    expect(decideLoaded(grep('/etc'), policy({ allow: ['Read(//etc/**)'] })).kind).toBe('allow');
    // Edit rules do not approve reads, nor Read rules writes.
    expect(decideLoaded(read('/etc/hosts'), policy({ allow: ['Edit(//etc/**)'] })).kind).toBe('ask');
    expect(decideLoaded(edit('/etc/hosts'), policy({ allow: ['Read(//etc/**)'], mode: 'acceptEdits' })).kind).toBe('ask');
    expect(decideLoaded(edit('/etc/hosts'), policy({ allow: ['Edit(//etc/**)'] }))).toEqual({
      kind: 'allow',
      reason: 'allowed by the rule "Edit(//etc/**)"',
      approvedPaths: ['/etc/hosts'],
    });
  });

  test('acceptEdits does not reach outside the roots', () => {
    expect(decideLoaded(edit('/tmp/x'), policy({ mode: 'acceptEdits' })).kind).toBe('ask');
    expect(decideLoaded(edit('/tmp/x'), policy({ mode: 'acceptEdits', roots: [PROJECT, '/tmp'] }))).toEqual({
      kind: 'allow',
      reason: 'acceptEdits mode',
      approvedPaths: [],
    });
  });

  test('~ rules are under the home folder; a bare Read rule approves every read', () => {
    expect(decideLoaded(read(`${HOME}/.npmrc`), policy({ allow: ['Read(~/.npmrc)'] })).kind).toBe('allow');
    expect(decideLoaded(read(`${HOME}/.ssh/id_rsa`), policy({ allow: ['Read(~/.npmrc)'] })).kind).toBe('ask');
    expect(decideLoaded(read(`${HOME}/.ssh/id_rsa`), policy({ allow: ['Read'] }))).toEqual({
      kind: 'allow',
      reason: 'allowed by the rule "Read"',
      approvedPaths: [`${HOME}/.ssh/id_rsa`],
    });
  });

  test('bypass approves every outside path, but deny rules still win', () => {
    expect(decideLoaded(edit('/etc/hosts'), policy({ mode: 'bypassPermissions' }))).toEqual({
      kind: 'allow',
      reason: 'bypassPermissions mode',
      approvedPaths: ['/etc/hosts'],
    });
    expect(decideLoaded(read(`${HOME}/.ssh/id_rsa`), policy({ mode: 'bypassPermissions', deny: ['Read(~/.ssh/**)'] }))).toEqual({
      kind: 'deny',
      reason: 'denied by the rule "Read(~/.ssh/**)"',
      rule: 'Read(~/.ssh/**)',
    });
  });

  test('path deny rules apply to any tool touching the path, ignoring case', () => {
    const p = policy({ allow: ['Read', 'Edit'], deny: ['Read(.env)', 'Edit(//etc/**)'] });
    expect(decideLoaded(read(`${PROJECT}/.env`), p).kind).toBe('deny');
    expect(decideLoaded(grep(`${PROJECT}/sub/.ENV`), p).kind).toBe('deny');
    expect(decideLoaded(edit(`${PROJECT}/.env`), p).kind).toBe('allow');
    expect(decideLoaded(edit('/etc/passwd'), p).kind).toBe('deny');
    const wasm: PermissionCall = {
      toolName: 'image_resize',
      effect: 'write',
      intent: { ruleName: 'image_resize', paths: [{ path: '/etc/x.png', access: 'write' }], summary: 'resize' },
    };
    expect(decideLoaded(wasm, p).kind).toBe('deny');
  });

  test('deny rules by tool name, with aliases and any case', () => {
    expect(decideLoaded(read(`${PROJECT}/a`), policy({ deny: ['grep'] })).kind).toBe('deny');
    expect(decideLoaded(fetchCall('a.com'), policy({ deny: ['web_fetch'] })).kind).toBe('deny');
    expect(decideLoaded(fetchCall('a.com'), policy({ deny: ['WEBFETCH'] })).kind).toBe('deny');
  });

  test('WebFetch domains: exact host, *. for subdomains, * for all', () => {
    const decide = (host: string, rule: string) => decideLoaded(fetchCall(host), policy({ allow: [rule] })).kind;
    expect(decide('example.com', 'WebFetch(domain:example.com)')).toBe('allow');
    expect(decide('EXAMPLE.com', 'WebFetch(domain:example.com)')).toBe('allow');
    expect(decide('docs.example.com', 'WebFetch(domain:example.com)')).toBe('ask');
    expect(decide('evilexample.com', 'WebFetch(domain:example.com)')).toBe('ask');
    expect(decide('docs.example.com', 'WebFetch(domain:*.example.com)')).toBe('allow');
    expect(decide('a.b.example.com', 'WebFetch(domain:*.example.com)')).toBe('allow');
    expect(decide('example.com', 'WebFetch(domain:*.example.com)')).toBe('ask');
    expect(decide('evilexample.com', 'WebFetch(domain:*.example.com)')).toBe('ask');
    expect(decide('anything.org', 'WebFetch(domain:*)')).toBe('allow');
    expect(decideLoaded(fetchCall('a.com'), policy())).toEqual({
      kind: 'ask',
      reason: 'web_fetch needs approval',
      cause: 'needs_approval',
      outsidePaths: [],
      rules: ['WebFetch(domain:a.com)'],
      broaderRules: ['WebFetch'],
      acceptEditsWouldAllow: false,
    });
  });

  test('other tools: by name, by subject, MCP servers', () => {
    const task: PermissionCall = { toolName: 'task', effect: 'execute', intent: { ruleName: 'Task', subject: 'explore', paths: [], summary: 'explore' } };
    expect(decideLoaded(task, policy({ allow: ['Task(explore)'] })).kind).toBe('allow');
    expect(decideLoaded(task, policy({ allow: ['Agent(explore)'] })).kind).toBe('allow');
    expect(decideLoaded(task, policy({ allow: ['Task(plan)'] })).kind).toBe('ask');
    expect(decideLoaded(task, policy({ allow: ['Task(exp*)'] })).kind).toBe('allow');
    const mcp: PermissionCall = { toolName: 'mcp__github__create_issue', effect: 'network', intent: { ruleName: 'mcp__github__create_issue', paths: [], summary: 'x' } };
    expect(decideLoaded(mcp, policy({ allow: ['mcp__github'] })).kind).toBe('allow');
    expect(decideLoaded(mcp, policy({ allow: ['mcp__github__*'] })).kind).toBe('allow');
    expect(decideLoaded(mcp, policy({ allow: ['mcp__git'] })).kind).toBe('ask');
  });

  test('Bash rules do not allow other tools, and file rules do not allow Bash', () => {
    expect(decideLoaded(bash('cat src/a.ts'), policy({ allow: ['Read', 'Edit(src/**)'] })).kind).toBe('ask');
    expect(decideLoaded(edit(`${PROJECT}/a`), policy({ allow: ['Bash'] })).kind).toBe('ask');
  });

  test('a Bash call that no rule can approve says why', () => {
    expect(decideLoaded(bash('echo $(whoami)'), policy({ allow: ['Bash(echo:*)'] }))).toEqual({
      kind: 'ask',
      reason: 'running "echo $(whoami)" needs approval: it uses command substitution ($(…) or backticks)',
      cause: 'unmatchable_command',
      outsidePaths: [],
      rules: [],
      broaderRules: [],
      acceptEditsWouldAllow: false,
    });
  });

  test('a partly covered Bash chain names the uncovered parts and the rules for them', () => {
    expect(decideLoaded(bash('git status && rm -rf build'), policy({ allow: ['Bash(git status:*)'] }))).toEqual({
      kind: 'ask',
      reason: 'running "git status && rm -rf build" needs approval: "rm -rf build" is not covered by an allow rule',
      cause: 'needs_approval',
      outsidePaths: [],
      rules: ['Bash(rm -rf build)'],
      broaderRules: ['Bash(rm:*)'],
      acceptEditsWouldAllow: false,
    });
  });

  test('a covered Bash command that writes a file asks for the write', () => {
    expect(decideLoaded(bash('git log > log.txt'), policy({ allow: ['Bash(git log:*)'] }))).toEqual({
      kind: 'ask',
      reason: `running "git log > log.txt" needs approval: it writes ${PROJECT}/log.txt`,
      cause: 'needs_approval',
      outsidePaths: [],
      rules: ['Edit(/log.txt)'],
      broaderRules: [],
      acceptEditsWouldAllow: true,
    });
  });
});

describe('ask rules (permissions.ask)', () => {
  test('an ask rule asks even where an allow rule or the mode would allow; deny still wins; bypass does not ask', () => {
    const push = bash('git push origin main');
    const p = (mode: Parameters<typeof policy>[0] = {}) => policy({ allow: ['Bash'], ask: ['Bash(git push:*)'], ...mode });
    expect(decideLoaded(push, p())).toMatchObject({ kind: 'ask', cause: 'ask_rule', reason: 'the rule "Bash(git push:*)" asks before Bash runs', rules: [] });
    expect(decideLoaded(bash('git status'), p()).kind).toBe('allow');
    expect(decideLoaded(push, p({ deny: ['Bash(git:*)'] })).kind).toBe('deny');
    expect(decideLoaded(push, p({ mode: 'bypassPermissions' })).kind).toBe('allow');
    expect(decideLoaded(push, p({ mode: 'dontAsk' })).kind).toBe('deny');
  });

  test('ask rules match like deny rules: a chained or nested command is caught, and file rules ask for reads', () => {
    const p = policy({ allow: ['Bash'], ask: ['Bash(git push:*)', 'Read(secrets/**)'] });
    expect(decideLoaded(bash('git status && git push'), p).kind).toBe('ask');
    expect(decideLoaded(bash("bash -c 'git push'"), p).kind).toBe('ask');
    expect(decideLoaded(read(`${PROJECT}/secrets/key.pem`), p)).toMatchObject({ kind: 'ask', cause: 'ask_rule' });
    expect(decideLoaded(read(`${PROJECT}/src/a.ts`), p).kind).toBe('allow');
  });
});
