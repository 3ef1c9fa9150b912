import { describe, expect, test } from 'bun:test';
import { expandSkill, skillUsage, SkillUsageError, type Skill } from '../../src/skills/index.ts';

function skill(body: string, args: Skill['args'] = []): Skill {
  return { name: 'demo', description: 'd', args, body, source: 'project', file: '/x/SKILL.md' };
}

describe('expandSkill', () => {
  test('$ARGUMENTS is the whole argument text, trimmed', () => {
    expect(expandSkill(skill('Review: $ARGUMENTS.'), '  src/a.ts  "b c" ')).toBe('Review: src/a.ts  "b c".');
  });

  test('$1, $2 … are shell-split positional arguments; missing ones are empty', () => {
    expect(expandSkill(skill('[$1] [$2] [$3]'), '"a b" c')).toBe('[a b] [c] []');
  });

  test("Claude Code's zero-based $ARGUMENTS[N] works too", () => {
    expect(expandSkill(skill('$ARGUMENTS[1] then $ARGUMENTS[0]'), 'x y')).toBe('y then x');
  });

  test('${name} names a declared argument; an undeclared ${NAME} and $0 are left alone', () => {
    const s = skill('file=${file} focus=${focus} home=${HOME} zero=$0', [
      { name: 'file', required: true },
      { name: 'focus', required: false },
    ]);
    expect(expandSkill(s, 'a.ts errors')).toBe('file=a.ts focus=errors home=${HOME} zero=$0');
  });

  test('text that arrives in an argument is not expanded again', () => {
    expect(expandSkill(skill('A: $1 / all: $ARGUMENTS'), "'$2 $ARGUMENTS' second")).toBe("A: $2 $ARGUMENTS / all: '$2 $ARGUMENTS' second");
  });

  test('a body without placeholders gets the arguments appended, so they are never lost', () => {
    expect(expandSkill(skill('Do the thing.'), 'carefully')).toBe('Do the thing.\n\nARGUMENTS: carefully');
    expect(expandSkill(skill('Do the thing.'), '')).toBe('Do the thing.');
  });

  test('a missing required argument throws SkillUsageError with the usage line', () => {
    const s = skill('$1', [
      { name: 'file', required: true },
      { name: 'focus', required: false },
    ]);
    expect(() => expandSkill(s, '')).toThrow(SkillUsageError);
    expect(() => expandSkill(s, '  ')).toThrow('/demo needs <file>: usage: /demo <file> [focus]');
    expect(skillUsage({ ...s, args: [], argumentHint: '[path]' })).toBe('/demo [path]');
  });
});
