/** Shared zod fields and validation for skill and agent frontmatter. */
import { formatKeyPath, issueMessage, issuePath } from '../contracts/index.ts';
import { z } from 'zod';
import { DefinitionError } from './definition-error.ts';
import { splitToolList } from './tool-list.ts';

/** Lowercase letters, digits, `-`, `_`, `.`: usable as `/name` and as a folder name. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

// Functions, not constants: a schema is built when a file is parsed (start-up parses none: the bundled ones are parsed while bundling).
export const nameField = () =>
  z
    .string({ error: 'must be text' })
    .regex(NAME_PATTERN, 'must be lowercase letters, digits, "-", "_" or "." (at most 64), starting with a letter or digit');

export const requiredText = (what: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? `is required: ${what}` : 'must be text') }).trim().min(1, `must not be empty: ${what}`);

export const optionalText = () => z.string({ error: 'must be text' }).trim().min(1, 'must not be empty (leave the field out instead)').optional();

/** A YAML list of names, or one string separated by commas or spaces. */
export const toolListField = () =>
  z
    .union([z.string(), z.array(z.string())], { error: 'must be a list of tool names or one comma-separated string' })
    .transform((v) => (typeof v === 'string' ? splitToolList(v) : v.flatMap(splitToolList)))
    .optional();

/**
 * Validates frontmatter against a schema. Unknown fields are ignored, not
 * errors: Claude Code adds fields (color, hooks, license, …) that moat has no
 * use for, and the same files must load in both. The first problem is
 * reported, naming its field.
 */
export function validate<S extends z.ZodType>(schema: S, data: Record<string, unknown>): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue === undefined ? [] : issuePath(issue);
  throw new DefinitionError(issue === undefined ? 'invalid frontmatter' : issueMessage(issue), path.length > 0 ? formatKeyPath(path) : undefined);
}
