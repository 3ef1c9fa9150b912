import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefinitionError, initSkill, loadSkills } from '../../src/skills/index.ts';
import { useTmp } from '../config/tmp.ts';

const tmp = useTmp();

describe('initSkill', () => {
  test('writes a skeleton that loads as is, with every optional field commented', () => {
    const root = tmp();
    const file = initSkill(root, 'release-notes');
    expect(file).toBe(join(root, '.moat', 'skills', 'release-notes', 'SKILL.md'));
    const text = readFileSync(file, 'utf8');
    for (const field of ['# when_to_use:', '# allowed-tools:', '# args:', '#   - name:', '#     description:', '#     required:']) expect(text).toContain(field);
    const { items, issues } = loadSkills({ projectRoot: root, configDir: join(root, 'none') });
    expect(issues).toEqual([]);
    expect(items.find((s) => s.name === 'release-notes')?.source).toBe('project');
  });

  test('never overwrites, and refuses a bad name', () => {
    const root = tmp();
    const file = initSkill(root, 'mine');
    writeFileSync(file, 'my work');
    expect(() => initSkill(root, 'mine')).toThrow('already exists');
    expect(readFileSync(file, 'utf8')).toBe('my work');
    expect(() => initSkill(root, '../escape')).toThrow(DefinitionError);
    expect(() => initSkill(root, 'Upper')).toThrow('not a valid skill name');
  });
});
