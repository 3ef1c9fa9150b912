import { describe, expect, test } from 'bun:test';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { edit, fetchCall, HOME, policy, PROJECT, read } from './helpers.ts';

const allowed = (rule: string, path: string): boolean => decideLoaded(edit(path), policy({ allow: [rule], roots: ['/'] })).kind === 'allow';

describe('path rules', () => {
  const cases: [string, string, boolean][] = [
    ['Edit(src)', `${PROJECT}/src/a.ts`, true],
    ['Edit(src)', `${PROJECT}/lib/src/a.ts`, true],
    ['Edit(/src)', `${PROJECT}/lib/src/a.ts`, false],
    ['Edit(./src/**)', `${PROJECT}/src/deep/a.ts`, true],
    ['Edit(./src/**)', `${PROJECT}/lib/src/a.ts`, false],
    ['Edit(src/*.ts)', `${PROJECT}/src/a.ts`, true],
    ['Edit(src/*.ts)', `${PROJECT}/src/deep/a.ts`, false],
    ['Edit(src/**/*.ts)', `${PROJECT}/src/deep/a.ts`, true],
    ['Edit(*.env)', `${PROJECT}/a/b/prod.env`, true],
    ['Edit(*.env)', '/elsewhere/prod.env', false],
    ['Edit(~)', `${HOME}/anything/at/all`, true],
    ['Edit(~/.config/**)', `${HOME}/.config/x`, true],
    ['Edit(~/.config/**)', `${HOME}/.configx`, false],
    ['Edit(//tmp/*.log)', '/tmp/a.log', true],
    ['Edit(//tmp/*.log)', '/var/tmp/a.log', false],
    ['Edit(//)', '/anything', true],
    ['Edit(/**)', `${PROJECT}/a/b`, true],
    ['Edit(/**)', '/elsewhere/a', false],
    ['Edit(../sibling/**)', `/work/sibling/a`, false],
  ];
  for (const [rule, path, expected] of cases) {
    test(`${rule} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      expect(allowed(rule, path)).toBe(expected);
    });
  }

  test('deny rules ignore case, allow rules do not', () => {
    expect(decideLoaded(read(`${PROJECT}/Secrets/KEY`), policy({ deny: ['Read(secrets/**)'] })).kind).toBe('deny');
    expect(decideLoaded(read('/ETC/Hosts'), policy({ allow: ['Read(//etc/**)'] })).kind).toBe('ask');
  });

  test('WebFetch subjects given as URLs are reduced to their host', () => {
    expect(decideLoaded(fetchCall('https://Docs.example.com/a?b'), policy({ allow: ['WebFetch(domain:*.example.com)'] })).kind).toBe('allow');
    expect(decideLoaded(fetchCall('https://example.com/'), policy({ deny: ['WebFetch(domain:example.com)'] })).kind).toBe('deny');
  });
});
