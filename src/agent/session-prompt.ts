/**
 * A session's system prompt, from its settings, its git facts and the
 * instructions its MCP servers sent; and the key that says when those
 * instructions changed, so a run rebuilds the prompt only then (the prompt
 * cache stays).
 */
import type { GitInfo } from '../util/index.ts';
import type { AgentSettings } from './settings.ts';
import { STRUCTURED_OUTPUT_INSTRUCTION } from './structured-output.ts';
import { buildSystemPrompt } from './system-prompt.ts';

export interface ServerInstructions {
  from: string;
  text: string;
}

export function sessionSystemPrompt(settings: Readonly<AgentSettings>, git: GitInfo | undefined, serverInstructions: readonly ServerInstructions[]): string {
  return buildSystemPrompt({
    cwd: settings.cwd,
    addDirs: settings.addDirs,
    git,
    home: settings.home,
    ...(settings.settingSources === undefined ? {} : { sources: settings.settingSources }),
    override: settings.systemPrompt,
    append: settings.outputSchema === undefined ? settings.appendSystemPrompt : [settings.appendSystemPrompt, STRUCTURED_OUTPUT_INSTRUCTION].filter(Boolean).join('\n\n'),
    // Skills and agent definitions: listed by name and description only.
    skills: settings.skills,
    agents: settings.agents,
    serverInstructions,
  });
}

/** Which servers' instructions a prompt holds. */
export function instructionsKey(list: readonly ServerInstructions[]): string {
  return list.map((i) => `${i.from}\0${i.text}`).join('\0');
}
