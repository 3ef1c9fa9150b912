import { describe, expect, test } from 'bun:test';
import { MoatError } from '../../../src/util/index.ts';
import { PermissionRuleError, parseRule, parseRuleList, splitRuleList } from '../../../src/tools/permissions/index.ts';

describe('parseRule', () => {
  test('bare names are canonicalised and case-insensitive', () => {
    expect(parseRule('Bash')).toEqual({ type: 'tool', text: 'Bash', ruleName: 'Bash' });
    expect(parseRule('edit')).toEqual({ type: 'tool', text: 'edit', ruleName: 'Edit' });
    expect(parseRule('write')).toEqual({ type: 'tool', text: 'write', ruleName: 'Edit' });
    expect(parseRule('glob')).toEqual({ type: 'tool', text: 'glob', ruleName: 'Read' });
    expect(parseRule('web_fetch')).toEqual({ type: 'tool', text: 'web_fetch', ruleName: 'WebFetch' });
    expect(parseRule('  TodoWrite ')).toEqual({ type: 'tool', text: 'TodoWrite', ruleName: 'TodoWrite' });
    expect(parseRule('my_wasm_tool')).toEqual({ type: 'tool', text: 'my_wasm_tool', ruleName: 'my_wasm_tool' });
  });

  test('Bash(*) is the same as Bash', () => {
    expect(parseRule('Bash(*)')).toEqual({ type: 'tool', text: 'Bash(*)', ruleName: 'Bash' });
  });

  test('Bash specifiers become command patterns', () => {
    const exact = parseRule('Bash(git  status)');
    expect(exact).toEqual({
      type: 'command',
      text: 'Bash(git  status)',
      ruleName: 'Bash',
      pattern: { type: 'exact', line: 'git status' },
    });
    const prefix = parseRule('Bash(npm test:*)');
    expect(prefix.type === 'command' && prefix.pattern.type).toBe('wildcard');
  });

  test('path, domain and subject specifiers', () => {
    const read = parseRule('Read(~/.ssh/**)');
    expect(read.type === 'path' && { anchor: read.pattern.anchor, glob: read.pattern.glob }).toEqual({
      anchor: 'home',
      glob: '/.ssh/**',
    });
    const abs = parseRule('Read(//etc/**)');
    expect(abs.type === 'path' && { anchor: abs.pattern.anchor, glob: abs.pattern.glob }).toEqual({
      anchor: 'absolute',
      glob: '/etc/**',
    });
    const rooted = parseRule('Edit(/src/**)');
    expect(rooted.type === 'path' && { anchor: rooted.pattern.anchor, glob: rooted.pattern.glob }).toEqual({
      anchor: 'project',
      glob: '/src/**',
    });
    expect(parseRule('WebFetch(domain:Example.COM)')).toEqual({
      type: 'domain',
      text: 'WebFetch(domain:Example.COM)',
      ruleName: 'WebFetch',
      domain: 'example.com',
    });
    const task = parseRule('Task(explore)');
    expect(task.type === 'subject' && task.regex.test('explore') && !task.regex.test('explorer')).toBe(true);
  });

  test('escaped parentheses and nested balanced ones are kept', () => {
    const r = parseRule('Bash(echo \\(hi\\))');
    expect(r.type === 'command' && r.pattern).toEqual({ type: 'exact', line: 'echo (hi)' });
    expect(parseRule('Skill(a(b))').text).toBe('Skill(a(b))');
  });

  const malformed: [string, string][] = [
    ['Bash(', 'invalid permission rule "Bash(": unbalanced parentheses: missing ")"'],
    ['Bash(ls', 'invalid permission rule "Bash(ls": unbalanced parentheses: missing ")"'],
    ['Bash(ls))', 'invalid permission rule "Bash(ls))": unbalanced parentheses: extra ")"'],
    ['Bash(ls)x', 'invalid permission rule "Bash(ls)x": unexpected text after ")": "x"'],
    ['(ls)', 'invalid permission rule "(ls)": the tool name is missing before "("'],
    ['', 'invalid permission rule "": the rule is empty'],
    ['Bash()', 'invalid permission rule "Bash()": nothing between the parentheses; write Bash alone to match every call'],
    ['Ba sh', 'invalid permission rule "Ba sh": "Ba sh" is not a tool name'],
    ['*', 'invalid permission rule "*": "*" is not a tool name'],
    ['Read)', 'invalid permission rule "Read)": unbalanced parentheses: missing "("'],
    ['WebFetch(example.com)', 'invalid permission rule "WebFetch(example.com)": WebFetch rules take the form WebFetch(domain:example.com)'],
    ['WebFetch(domain:)', 'invalid permission rule "WebFetch(domain:)": the domain is empty'],
    ['WebFetch(domain:http://x.com/)', 'invalid permission rule "WebFetch(domain:http://x.com/)": "http://x.com/" is not a host name (use example.com or *.example.com)'],
  ];
  for (const [text, message] of malformed) {
    test(`rejects ${JSON.stringify(text)} with one line`, () => {
      let caught: unknown;
      try {
        parseRule(text);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(PermissionRuleError);
      expect(caught).toBeInstanceOf(MoatError);
      const err = caught as PermissionRuleError;
      expect({ message: err.message, code: err.code, user: err.user }).toEqual({ message, code: 'usage', user: true });
      expect(err.message.includes('\n')).toBe(false);
    });
  }
});

describe('parseRuleList', () => {
  test('splits on commas and spaces, never inside parentheses', () => {
    expect(splitRuleList(['Bash(git log:*) Read'])).toEqual(['Bash(git log:*)', 'Read']);
    expect(splitRuleList(['Bash(git log:*),Read'])).toEqual(['Bash(git log:*)', 'Read']);
    expect(splitRuleList(['Bash(npm run test:*), Edit(src/**)  WebFetch(domain:a.com)', 'Grep'])).toEqual([
      'Bash(npm run test:*)',
      'Edit(src/**)',
      'WebFetch(domain:a.com)',
      'Grep',
    ]);
    expect(splitRuleList(['Bash(echo a,b)'])).toEqual(['Bash(echo a,b)']);
    expect(splitRuleList(['Bash(echo \\) x)'])).toEqual(['Bash(echo \\) x)']);
    expect(splitRuleList([' , ', ''])).toEqual([]);
  });

  test('parses every rule and reports the malformed one', () => {
    expect(parseRuleList(['Read,Edit']).map((r) => r.ruleName)).toEqual(['Read', 'Edit']);
    expect(() => parseRuleList(['Read Bash(git status'])).toThrow('invalid permission rule "Bash(git status": unbalanced parentheses: missing ")"');
  });
});
