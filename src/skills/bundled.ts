/**
 * Skills and agent definitions that ship inside the binary. They are imported
 * as text so `bun build --compile` embeds them; they have no folder on disk,
 * hence no extra files. Their tests parse every one, so a broken bundled file
 * fails the build's tests rather than a user's run.
 */
import generalAgent from './bundled-agents/general.md' with { type: 'text' };
import exploreAgent from './bundled-agents/explore.md' with { type: 'text' };
import reviewAgent from './bundled-agents/review.md' with { type: 'text' };
import codeReview from '../../skills/code-review/SKILL.md' with { type: 'text' };
import commit from '../../skills/commit/SKILL.md' with { type: 'text' };
import explain from '../../skills/explain/SKILL.md' with { type: 'text' };
import writeTests from '../../skills/write-tests/SKILL.md' with { type: 'text' };
import { parseAgentFile } from './agent-file.ts';
import { parseSkillFile } from './skill-file.ts';
import type { AgentDefinition, Skill } from './types.ts';

const SKILL_TEXTS: Record<string, string> = {
  'code-review': codeReview,
  commit,
  explain,
  'write-tests': writeTests,
};

const AGENT_TEXTS: Record<string, string> = {
  general: generalAgent,
  explore: exploreAgent,
  review: reviewAgent,
};

export const BUNDLED_PREFIX = '<bundled>';

let skillsCache: Skill[] | undefined;
let agentsCache: AgentDefinition[] | undefined;

export function bundledSkills(): Skill[] {
  skillsCache ??= Object.entries(SKILL_TEXTS).map(([folderName, text]) =>
    parseSkillFile(text, { file: `${BUNDLED_PREFIX}/skills/${folderName}/SKILL.md`, folderName, source: 'bundled' }),
  );
  return skillsCache;
}

export function bundledAgents(): AgentDefinition[] {
  agentsCache ??= Object.entries(AGENT_TEXTS).map(([baseName, text]) =>
    parseAgentFile(text, { file: `${BUNDLED_PREFIX}/agents/${baseName}.md`, baseName, source: 'bundled' }),
  );
  return agentsCache;
}
