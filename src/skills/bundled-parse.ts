/**
 * Parses the bundled skills and agent definitions. scripts/build.ts evaluates
 * it while bundling, so the binary holds the parsed objects as literals and
 * start-up parses no frontmatter for them (a broken bundled file fails the
 * build), their bodies in a file read on use (bundled-module.ts); under
 * `bun run` and `bun test` it runs as written. The files are imported as text; they have no folder
 * on disk, hence no extra files.
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

/** Virtual paths of bundled files, `<bundled>/skills/<name>/SKILL.md` and `<bundled>/agents/<name>.md`. */
const PREFIX = '<bundled>';

export function parseBundled(): { skills: Skill[]; agents: AgentDefinition[] } {
  return {
    skills: Object.entries(SKILL_TEXTS).map(([folderName, text]) => parseSkillFile(text, { file: `${PREFIX}/skills/${folderName}/SKILL.md`, folderName, source: 'bundled' })),
    agents: Object.entries(AGENT_TEXTS).map(([baseName, text]) => parseAgentFile(text, { file: `${PREFIX}/agents/${baseName}.md`, baseName, source: 'bundled' })),
  };
}
