/** Builds the system prompt: instructions, environment, memory files, skills and agents. */
import base from './prompts/base.md' with { type: 'text' };
import type { GitInfo } from '../util/index.ts';
import { memoryFiles, type InstructionSource } from './memory-files.ts';

export interface SystemPromptInput {
  cwd: string;
  /** Extra folders from --add-dir. */
  addDirs: readonly string[];
  git: GitInfo | undefined;
  /** Replaces the built-in instructions entirely (--system-prompt). */
  override?: string;
  /** Appended after everything else (--append-system-prompt). */
  append?: string;
  platform?: string;
  now?: Date;
  /** Skills the model can run with the `skill` tool: names and descriptions only, never bodies. */
  skills?: readonly PromptSkill[];
  /** Agent definitions the model can hand a task to (the `task` tool). */
  agents?: readonly PromptAgent[];
  /** For `~/.claude/CLAUDE.md` and `@~/…` imports. */
  home?: string;
  /** `--setting-sources` (the Agent SDK's `settingSources`): which instruction files to read; absent: all. */
  sources?: readonly InstructionSource[];
}

export interface PromptSkill {
  name: string;
  description: string;
  whenToUse?: string;
}

export interface PromptAgent {
  name: string;
  description: string;
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const now = input.now ?? new Date();
  const env: string[] = [
    `Working folder: ${input.cwd}`,
    ...input.addDirs.map((d) => `Additional folder: ${d}`),
    `Platform: ${input.platform ?? process.platform}`,
    `Today's date: ${now.toISOString().slice(0, 10)}`,
  ];
  if (input.git) {
    env.push(`Git repository: yes (root ${input.git.root}, branch ${input.git.branch})`);
    env.push(input.git.status === undefined ? 'Git status: not read (the folder is not trusted yet; run `git status` to see it)' : `Git status (short):\n${input.git.status || '(clean)'}`);
  } else {
    env.push('Git repository: no');
  }

  const sections = [input.override ?? base.trim(), `# Environment\n${env.join('\n')}`];
  const memory = memoryFiles({
    cwd: input.cwd,
    gitRoot: input.git?.root,
    roots: input.addDirs,
    ...(input.home === undefined ? {} : { home: input.home }),
    ...(input.sources === undefined ? {} : { sources: input.sources }),
  });
  if (memory.length > 0) {
    sections.push(
      '# Project instructions\nThese files come from the user and the repository. Follow them; later files are more specific.\n\n' +
        memory.map((m) => `## ${m.path}\n${m.text.trim()}`).join('\n\n'),
    );
  }
  // A program's own system prompt is the whole instruction (as in Claude Code): the Skill and Task tools still name what they run.
  if (input.override === undefined) {
    if (input.skills && input.skills.length > 0) sections.push(skillsSection(input.skills));
    if (input.agents && input.agents.length > 0) sections.push(agentsSection(input.agents));
  }
  if (input.append) sections.push(input.append);
  return sections.join('\n\n');
}

/** One line per skill: the bodies stay out of the prompt until a skill is called, which keeps the prompt small. */
function skillsSection(skills: readonly PromptSkill[]): string {
  const lines = skills.map((s) => `- ${s.name}: ${s.description}${s.whenToUse ? ` (When to use: ${s.whenToUse})` : ''}`);
  return [
    '# Skills',
    'Skills are saved instructions for recurring tasks. When a task matches one, call the `Skill` tool with its name (and arguments) and follow the instructions it returns. When the user writes `/name args` for one of these, that is a request to run that skill.',
    ...lines,
  ].join('\n');
}

function agentsSection(agents: readonly PromptAgent[]): string {
  return [
    '# Agents',
    'Sub-agents you can hand a self-contained task to with the `Task` tool (choose by its description):',
    ...agents.map((a) => `- ${a.name}: ${a.description}`),
  ].join('\n');
}
