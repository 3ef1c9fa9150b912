import { describe, expect, test } from 'bun:test';
import { DefinitionError, parseFrontmatter } from '../../src/skills/index.ts';

function errorOf(fn: () => unknown): DefinitionError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DefinitionError) return e;
    throw e;
  }
  throw new Error('expected a DefinitionError');
}

describe('parseFrontmatter', () => {
  test('splits the YAML fields from the body', () => {
    const text = '---\nname: x\ndescription: "Does x"\ntools: [a, b]\n---\nBody line 1\n\nBody line 2\n';
    expect(parseFrontmatter(text)).toEqual({ data: { name: 'x', description: 'Does x', tools: ['a', 'b'] }, body: 'Body line 1\n\nBody line 2\n' });
  });

  test('CRLF line endings and a byte-order mark are accepted', () => {
    expect(parseFrontmatter('\uFEFF---\r\nname: x\r\n---\r\nBody\r\n')).toEqual({ data: { name: 'x' }, body: 'Body\r\n' });
  });

  test('a plain value containing ": " loads, as it does in Claude Code', () => {
    const text = '---\nname: helper\ndescription: Use this agent when: the user asks\\n for help\nmodel: sonnet\n---\nPrompt\n';
    expect(parseFrontmatter(text).data).toEqual({ name: 'helper', description: 'Use this agent when: the user asks\\n for help', model: 'sonnet' });
  });

  test('missing, unclosed, invalid or non-mapping frontmatter is a DefinitionError', () => {
    expect(errorOf(() => parseFrontmatter('just a body\n')).message).toContain('no frontmatter');
    expect(errorOf(() => parseFrontmatter('---\nname: x\nbody without close\n')).message).toContain('not closed');
    expect(errorOf(() => parseFrontmatter('---\nname: "unclosed\n---\nbody\n')).message).toContain('not valid YAML');
    expect(errorOf(() => parseFrontmatter('---\n- a\n- b\n---\nbody\n')).message).toContain('must be YAML fields');
  });

  test('empty frontmatter gives no fields', () => {
    expect(parseFrontmatter('---\n---\nbody').data).toEqual({});
  });
});

describe('Claude Code argument hints', () => {
  test('`[a] [b]` is not YAML but loads as text; `[a, b]` stays a list', () => {
    expect(parseFrontmatter('---\nargument-hint: [add|remove] [id]\ntools: [a, b]\n---\nx').data).toEqual({ 'argument-hint': '[add|remove] [id]', tools: ['a', 'b'] });
  });
});
