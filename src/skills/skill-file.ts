/** Parses one SKILL.md. */
import { z } from 'zod';
import { once } from '../util/index.ts';
import { DefinitionError } from './definition-error.ts';
import { parseFrontmatter } from './frontmatter.ts';
import { NAME_PATTERN, nameField, optionalText, requiredText, toolListField, validate } from './schema-helpers.ts';
import type { DefinitionSource, Skill, SkillArg } from './types.ts';

// A bare name is shorthand for an optional argument: `args: [file, focus]`.
const argField = once(() =>
  z.preprocess(
    (v) => (typeof v === 'string' ? { name: v } : v),
    z
      .object(
        {
          name: z.string({ error: 'is required' }).regex(/^[A-Za-z_][\w-]*$/, 'must be a word (letters, digits, "_", "-")'),
          description: optionalText(),
          required: z.boolean({ error: 'must be true or false' }).default(false),
        },
        { error: 'must be a name, or fields name, description, required' },
      )
      .transform((a): SkillArg => ({ name: a.name, required: a.required, ...(a.description ? { description: a.description } : {}) })),
  ),
);

/** Claude Code's own examples write `argument-hint: [file]` unquoted, which YAML reads as a list. */
const hintField = once(() =>
  z
    .union([z.string(), z.array(z.union([z.string(), z.number()]))], { error: 'must be text, e.g. "[file] [focus]"' })
    .transform((v) => (typeof v === 'string' ? v.trim() : `[${v.join(', ')}]`))
    .optional(),
);

const skillSchema = once(() =>
  z.object({
    name: nameField().optional(),
    description: requiredText('one line saying what the skill does'),
    when_to_use: optionalText(),
    'allowed-tools': toolListField(),
    args: z.array(argField(), { error: 'must be a list of arguments (name, description, required)' }).optional(),
    'argument-hint': hintField(),
  }),
);

export interface SkillFileOrigin {
  file: string;
  /** The folder holding SKILL.md; undefined for bundled skills. */
  dir?: string;
  /** The folder's name: the skill's name when the frontmatter has none. */
  folderName: string;
  source: DefinitionSource;
}

/** Parses one SKILL.md. Throws DefinitionError naming the field at fault. */
export function parseSkillFile(text: string, origin: SkillFileOrigin): Skill {
  const { data, body } = parseFrontmatter(text);
  const fm = validate(skillSchema(), data);
  const name = fm.name ?? origin.folderName;
  if (!NAME_PATTERN.test(name)) {
    throw new DefinitionError(`no name given and the folder name "${origin.folderName}" is not a valid skill name (lowercase letters, digits, "-", "_", ".")`, 'name');
  }
  const args = fm.args ?? [];
  const seen = new Set<string>();
  for (const a of args) {
    if (seen.has(a.name)) throw new DefinitionError(`argument "${a.name}" is declared twice`, 'args');
    seen.add(a.name);
  }
  if (body.trim() === '') throw new DefinitionError('the body (the prompt after the frontmatter) is empty');
  return {
    name,
    description: fm.description,
    ...(fm.when_to_use ? { whenToUse: fm.when_to_use } : {}),
    ...(fm['allowed-tools'] ? { allowedTools: fm['allowed-tools'] } : {}),
    args,
    ...(fm['argument-hint'] ? { argumentHint: fm['argument-hint'] } : {}),
    body: body.trim(),
    source: origin.source,
    file: origin.file,
    ...(origin.dir ? { dir: origin.dir } : {}),
  };
}
