/**
 * `--json-schema`'s validator: the user's JSON Schema compiled by Ajv, the
 * reference JSON Schema validator (drafts 07, 2019-09 and 2020-12, chosen by
 * `$schema`; formats by ajv-formats), wrapped as the zod type a tool's input
 * is checked with. Loaded only when a run is given a schema
 * (`loadOutputValidator` in index.ts). Not zod's `fromJSONSchema`: it builds
 * schemas of every kind, so it kept all of zod (about 69 KB) in the code every
 * run loads before its first request, whether it had a schema or not.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { errorMessage, MoatError } from '../util/index.ts';
import type { OutputSchema } from './settings.ts';

/** The Ajv class for the draft a schema names; draft-07 (Ajv's own default) when it names none. */
function ajvFor(schema: Record<string, unknown>): Ajv {
  const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
  // strict: false: keywords Ajv does not know (titles of other tools, `examples` in old drafts) are annotations, not errors.
  const options = { allErrors: true, strict: false };
  const ajv = draft.includes('2020-12') ? new Ajv2020(options) : draft.includes('2019-09') ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** A JSON Pointer (`/items/0/name`) as a path: ['items', 0, 'name']. */
function pathOf(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

/**
 * The schema with its validator. A schema Ajv cannot compile is a usage
 * error: better refused at start than an answer nobody can check.
 */
export function outputSchemaOf(schema: Record<string, unknown>, where: string): OutputSchema {
  let validate: ValidateFunction;
  try {
    validate = ajvFor(schema).compile(schema);
  } catch (e) {
    throw new MoatError('usage', `${where}: not a JSON Schema moat can check: ${errorMessage(e)}`);
  }
  const validator = z.unknown().superRefine((value, ctx) => {
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      const extra = error.keyword === 'additionalProperties' ? ` (${JSON.stringify((error.params as { additionalProperty?: string }).additionalProperty)})` : '';
      ctx.addIssue({ code: 'custom', message: `${error.message ?? 'is not valid'}${extra}`, path: pathOf(error.instancePath) });
    }
  });
  return { schema, validator };
}
