/**
 * Claude Code's custom slash commands (`.claude/commands/*.md`,
 * `~/.claude/commands/*.md`) as skills: the file name is the command, the
 * frontmatter is optional (`description`, `argument-hint`, `allowed-tools`,
 * `model`), and the body uses `$ARGUMENTS` and `$1`… like a skill's.
 */
import { z } from 'zod';
import { once } from '../util/index.ts';
import { DefinitionError } from './definition-error.ts';
import { parseFrontmatter } from './frontmatter.ts';
import { NAME_PATTERN, optionalText, toolListField, validate } from './schema-helpers.ts';
import type { DefinitionSource, Skill } from './types.ts';

const commandSchema = once(() =>
  z.object({
    description: optionalText(),
    'allowed-tools': toolListField(),
    'argument-hint': z
      .union([z.string(), z.array(z.union([z.string(), z.number()]))], { error: 'must be text, e.g. "[file] [focus]"' })
      .transform((v) => (typeof v === 'string' ? v.trim() : `[${v.join(', ')}]`))
      .optional(),
    model: optionalText(),
  }),
);

/** Parses one command file; `fileName` without `.md` is its name. Throws DefinitionError naming the field. */
export function parseCommandFile(text: string, origin: { file: string; fileName: string; source: DefinitionSource }): Skill {
  const name = origin.fileName.replace(/\.md$/i, '').toLowerCase();
  if (!NAME_PATTERN.test(name)) throw new DefinitionError(`"${origin.fileName}" is not a usable command name (letters, digits, "-", "_", ".")`, 'name');
  // Frontmatter is optional in a command file: without the opening `---` the whole file is the prompt.
  const { data, body } = /^\uFEFF?---\s*\r?\n/.test(text) ? parseFrontmatter(text) : { data: {}, body: text };
  const fm = validate(commandSchema(), data);
  const prompt = body.trim();
  if (prompt === '') throw new DefinitionError('the body (the prompt after the frontmatter) is empty');
  // Claude Code shows a command's first line when it has no description.
  const firstLine = prompt.split('\n', 1)[0]!.replace(/^#+\s*/, '').slice(0, 100);
  return {
    name,
    description: fm.description ?? firstLine,
    ...(fm['allowed-tools'] ? { allowedTools: fm['allowed-tools'] } : {}),
    args: [],
    ...(fm['argument-hint'] ? { argumentHint: fm['argument-hint'] } : {}),
    ...(fm.model ? { model: fm.model } : {}),
    body: prompt,
    source: origin.source,
    file: origin.file,
  };
}
