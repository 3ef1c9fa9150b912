/**
 * The version of the public `-p` output schema (schema.ts). Its own module so
 * that writing lines does not evaluate the zod schema (that only describes and
 * checks them). Bump it on any incompatible change.
 */
export const SCHEMA_VERSION = 3;
