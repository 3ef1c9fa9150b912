/**
 * Skills and agent definitions that ship inside the binary, parsed while
 * bundling (bundled-parse.ts, evaluated by scripts/build.ts): start-up reads
 * them from the bundle as they are, and a body from its embedded file when it
 * is first used (bundled-module.ts). Their tests check every one against its file.
 */
import { parseBundled } from './bundled-parse.ts';
import type { AgentDefinition, Skill } from './types.ts';

export const BUNDLED_PREFIX = '<bundled>';

const BUNDLED: { skills: Skill[]; agents: AgentDefinition[] } = parseBundled();

export function bundledSkills(): Skill[] {
  return BUNDLED.skills;
}

export function bundledAgents(): AgentDefinition[] {
  return BUNDLED.agents;
}
