/** The JSON Schema the model sees for a WebAssembly tool. */
import type { ArgumentSpec, JsonSchemaObject, JsonSchemaProperty, OptionSpec, ValueType } from './spec.ts';

/**
 * The JSON Schema the model sees, from the parsed options and arguments.
 * Plain JSON (no zod): it is data that came from a tool, not a type we wrote.
 */

/** A help-text default or enum value as a typed JSON value, when it fits the type. */
export function typedValue(raw: string, type: ValueType): string | number | boolean | undefined {
  switch (type) {
    case 'string':
      return raw;
    case 'integer':
      return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
    case 'number': {
      const n = Number(raw);
      return raw.trim() !== '' && Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
  }
}

function typedEnum(values: string[], type: ValueType): (string | number | boolean)[] | undefined {
  const typed = values.map((v) => typedValue(v, type));
  return typed.every((v) => v !== undefined) ? (typed as (string | number | boolean)[]) : undefined;
}

function property(spec: OptionSpec | ArgumentSpec): JsonSchemaProperty {
  const enumValues = spec.enum ? typedEnum(spec.enum, spec.type) : undefined;
  let description = spec.description;
  if (spec.kind === 'option' && !spec.long && spec.short) description = `${description} (-${spec.short})`.trim();
  const def = spec.default === undefined ? undefined : typedValue(spec.default, spec.type);
  if (spec.default !== undefined && def === undefined) description = `${description} (default: ${spec.default})`.trim();
  if (spec.multiple) {
    const prop: JsonSchemaProperty = { type: 'array', items: { type: spec.type } };
    if (enumValues && prop.items) prop.items.enum = enumValues;
    if (description !== '') prop.description = description;
    if (spec.kind === 'argument' && spec.required) prop.minItems = 1;
    return prop;
  }
  const prop: JsonSchemaProperty = { type: spec.type };
  if (description !== '') prop.description = description;
  if (enumValues) prop.enum = enumValues;
  if (def !== undefined) prop.default = def;
  return prop;
}

export function buildSchema(options: OptionSpec[], args: ArgumentSpec[]): JsonSchemaObject {
  const properties: Record<string, JsonSchemaProperty> = {};
  const required: string[] = [];
  for (const spec of [...args, ...options]) {
    properties[spec.property] = property(spec);
    if (spec.required) required.push(spec.property);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}
