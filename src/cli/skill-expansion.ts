/**
 * `/name args`, what the `expand_skill` operation does: the skill's (or custom
 * command's) body with its arguments, its !`cmd` lines run through the
 * session's permission check, and the model it asks for.
 */
import { resolveModel, type AgentSession } from '../agent/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import type { OwnerControls } from '../protocol/index.ts';
import { expandSlashCommand, SkillUsageError, type Skill } from '../skills/index.ts';
import type { RecordChange } from './checkpoint-setup.ts';
import { runInlineCommands, sessionCheck } from './inline-commands.ts';

/** `recordChange`: its !`cmd` lines may write (a trusted command's allowed-tools), so they are checkpointed with the message they go into. */
export function skillExpansion(skills: readonly Skill[], router: ModelRouter | undefined, recordChange: RecordChange): NonNullable<OwnerControls<AgentSession>['expandSkill']> {
  return async (agent, name, args, signal, emit) => {
    let expansion;
    try {
      expansion = expandSlashCommand(`/${name}${args ? ` ${args}` : ''}`, skills);
    } catch (e) {
      // A missing required argument: the message names it and gives the usage line.
      if (e instanceof SkillUsageError) throw new Error(e.message);
      throw e;
    }
    if (expansion.type !== 'skill') return undefined;
    let model: string | undefined;
    if (expansion.skill.model !== undefined) {
      model = resolveModel(agent.currentSettings().model, expansion.skill.model);
      // A name no provider takes is the user's mistake, shown before anything runs.
      router?.resolve(model);
    }
    const { prompt, skill } = expansion;
    // Asked as the model's Bash call would be: the question, if any, comes up as a tool call's does.
    const check = sessionCheck(agent, signal, emit);
    const text = await recordChange(agent, () => runInlineCommands(prompt, skill, agent.currentSettings(), signal, check));
    return { prompt: text, ...(model === undefined ? {} : { model }) };
  };
}
