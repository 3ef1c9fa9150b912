// The user's record of trusted projects and approved MCP servers: defaults, persistence, symlinks, bad files.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approveMcpServers,
  projectTrust,
  trustFilePath,
  TrustFileError,
  trustProject,
  untrustProject,
} from '../../src/config/project-trust.ts';
import { useTmp } from './tmp.ts';

const tmp = useTmp();

function setup() {
  const root = tmp();
  const configDir = join(root, 'config');
  const project = join(root, 'repo');
  mkdirSync(project);
  return { configDir, project };
}

describe('project trust', () => {
  test('an unknown project is untrusted with no approved servers, and nothing is written', () => {
    const { configDir, project } = setup();
    expect(projectTrust(project, configDir)).toEqual({ trusted: false, approvedMcpServers: [], approvedRules: [] });
    expect(() => statSync(trustFilePath(configDir))).toThrow();
  });

  test('trust persists, is per project, and can be withdrawn', () => {
    const { configDir, project } = setup();
    const other = join(project, '..', 'other');
    mkdirSync(other);
    trustProject(project, configDir);
    expect(projectTrust(project, configDir)).toEqual({ trusted: true, approvedMcpServers: [], approvedRules: [] });
    expect(projectTrust(other, configDir).trusted).toBe(false);
    untrustProject(project, configDir);
    expect(projectTrust(project, configDir).trusted).toBe(false);
  });

  test('MCP approvals accumulate without duplicates and survive untrusting', () => {
    const { configDir, project } = setup();
    approveMcpServers(project, ['github', 'db'], configDir);
    approveMcpServers(project, ['db', 'browser'], configDir);
    trustProject(project, configDir);
    untrustProject(project, configDir);
    expect(projectTrust(project, configDir)).toEqual({ trusted: false, approvedMcpServers: ['browser', 'db', 'github'], approvedRules: [] });
  });

  test('a symlinked checkout is the same project as its target', () => {
    const { configDir, project } = setup();
    const link = join(project, '..', 'link');
    symlinkSync(project, link);
    trustProject(link, configDir);
    expect(projectTrust(project, configDir).trusted).toBe(true);
  });

  test('the file is private to the user (0600)', () => {
    const { configDir, project } = setup();
    trustProject(project, configDir);
    expect(statSync(trustFilePath(configDir)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(trustFilePath(configDir), 'utf8')).version).toBe(1);
  });

  test('a broken file is a typed error naming the file, not a silent grant or reset', () => {
    const { configDir, project } = setup();
    mkdirSync(configDir, { recursive: true });
    writeFileSync(trustFilePath(configDir), '{"projects": {"/x": {"trusted": "yes"}}}');
    expect(() => projectTrust(project, configDir)).toThrow(TrustFileError);
    expect(() => projectTrust(project, configDir)).toThrow(/projects\.json: projects\."\/x"\.trusted: /);
    writeFileSync(trustFilePath(configDir), '{not json');
    expect(() => trustProject(project, configDir)).toThrow(/not valid JSON/);
  });
});
