import { describe, expect, test } from 'bun:test';
import { resolveToolNames, splitToolList } from '../../src/skills/index.ts';

describe('tool lists', () => {
  test('comma-separated, space-separated, and separators inside a rule kept', () => {
    expect(splitToolList('Read, Grep,Glob')).toEqual(['Read', 'Grep', 'Glob']);
    expect(splitToolList('Read Grep  Glob')).toEqual(['Read', 'Grep', 'Glob']);
    expect(splitToolList('Bash(git log -n 5, --oneline), Read')).toEqual(['Bash(git log -n 5, --oneline)', 'Read']);
    expect(splitToolList('  ')).toEqual([]);
  });

  test("Claude Code names map onto moat's tools; unknown names are returned, not dropped silently", () => {
    const available = ['read', 'write', 'edit', 'bash', 'grep', 'glob', 'ls', 'todo_write', 'skill'];
    expect(resolveToolNames(['Read', 'Bash(git diff:*)', 'Bash', 'TodoWrite', 'LS', 'WebFetch', 'Task'], available)).toEqual({
      tools: ['read', 'bash', 'todo_write', 'ls'],
      unknown: ['WebFetch', 'Task'],
    });
  });
});
