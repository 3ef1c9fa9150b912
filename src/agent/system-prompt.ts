import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import base from './prompts/base.md' with { type: 'text' };
import type { GitInfo } from './git-info.ts';

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

/** Instruction files other agents' users already keep in their repos. */
const MEMORY_FILES = ['AGENTS.md', 'CLAUDE.md'];
const MEMORY_CAP = 40_000;

/**
 * The folders from the repository root down to cwd (root first), so that
 * more specific instructions come later and win.
 */
function foldersFromRootTo(root: string, cwd: string): string[] {
  const rel = relative(root, cwd);
  if (rel.startsWith('..')) return [cwd];
  const parts = rel === '' ? [] : rel.split(sep);
  const out = [root];
  let cur = root;
  for (const p of parts) {
    cur = join(cur, p);
    out.push(cur);
  }
  return out;
}

export function memoryFiles(cwd: string, gitRoot: string | undefined): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const folder of foldersFromRootTo(gitRoot ?? cwd, cwd)) {
    for (const name of MEMORY_FILES) {
      const path = join(folder, name);
      if (!existsSync(path)) continue;
      try {
        let text = readFileSync(path, 'utf8');
        if (text.length > MEMORY_CAP) text = `${text.slice(0, MEMORY_CAP)}\n… (truncated)`;
        out.push({ path, text });
      } catch {
        // unreadable file: skip rather than fail the run
      }
    }
  }
  return out;
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
    env.push(`Git status (short):\n${input.git.status || '(clean)'}`);
  } else {
    env.push('Git repository: no');
  }

  const sections = [input.override ?? base.trim(), `# Environment\n${env.join('\n')}`];
  const memory = memoryFiles(input.cwd, input.git?.root);
  if (memory.length > 0) {
    sections.push(
      '# Project instructions\nThese files come from the repository. Follow them; later files are more specific.\n\n' +
        memory.map((m) => `## ${m.path}\n${m.text.trim()}`).join('\n\n'),
    );
  }
  if (input.skills && input.skills.length > 0) sections.push(skillsSection(input.skills));
  if (input.agents && input.agents.length > 0) sections.push(agentsSection(input.agents));
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
