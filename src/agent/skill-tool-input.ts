/** The Skill tool's input (its own module: the tool's JSON Schema is computed from it while bundling). */
import { z } from 'zod';
import { once } from '../util/index.ts';

export const skillToolInput = once(() =>
  z
    .strictObject({
      name: z.string().min(1).optional().describe('The skill to run, e.g. "code-review".'),
      args: z.string().optional().describe('Arguments, as typed after /name; quote one that contains spaces.'),
      file: z.string().min(1).optional().describe("Instead of running the skill, read this file of its folder (a path from the skill's file list)."),
      list: z.boolean().optional().describe('true: list the available skills instead of running one.'),
    })
    .refine((v) => v.list === true || v.name !== undefined, { message: 'Give "name" (the skill to run), or "list": true to see the skills.' }),
);
