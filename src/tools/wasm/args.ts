/** The model's JSON input to argv for a WebAssembly tool. */
import { ToolError } from '../types.ts';
import type { ArgumentSpec, OptionSpec, ToolSpecFromHelp, ValueType } from './spec.ts';

/**
 * The model's JSON input → argv for the tool. Everything is validated first
 * (unknown properties, missing required ones, types, enums) and all problems
 * are reported at once, so the model can fix its call in one round.
 */

type Value = string | number | boolean;

function describeValue(v: unknown): string {
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return `${typeof v} ${JSON.stringify(v)}`;
}

function checkScalar(name: string, type: ValueType, enumValues: string[] | undefined, v: unknown, problems: string[]): v is Value {
  let ok: boolean;
  switch (type) {
    case 'string':
      ok = typeof v === 'string';
      break;
    case 'integer':
      ok = typeof v === 'number' && Number.isSafeInteger(v);
      break;
    case 'number':
      ok = typeof v === 'number' && Number.isFinite(v);
      break;
    case 'boolean':
      ok = typeof v === 'boolean';
      break;
  }
  if (!ok) {
    problems.push(`"${name}" must be ${type === 'integer' ? 'an integer' : `a ${type}`}, not ${describeValue(v)}`);
    return false;
  }
  if (enumValues && !enumValues.includes(String(v))) {
    problems.push(`"${name}" must be one of ${enumValues.map((e) => JSON.stringify(e)).join(', ')}, not ${JSON.stringify(v)}`);
    return false;
  }
  return true;
}

/** Validated values of one property, as strings for argv (an array for repeatable ones). */
function values(spec: OptionSpec | ArgumentSpec, v: unknown, problems: string[]): string[] | undefined {
  if (!spec.multiple) return checkScalar(spec.property, spec.type, spec.enum, v, problems) ? [String(v)] : undefined;
  if (!Array.isArray(v)) {
    problems.push(`"${spec.property}" must be an array of ${spec.type} values, not ${describeValue(v)}`);
    return undefined;
  }
  const before = problems.length;
  const items: unknown[] = v;
  items.forEach((item, i) => checkScalar(`${spec.property}[${i}]`, spec.type, spec.enum, item, problems));
  return problems.length === before ? items.map(String) : undefined;
}

function optionArgs(o: OptionSpec, vals: string[]): string[] {
  if (o.valueName === undefined) return vals[0] === 'true' ? [o.long ? `--${o.long}` : `-${o.short ?? ''}`] : [];
  return vals.flatMap((v) => {
    // `--at -5` reads as two options to most parsers; `--at=-5` cannot be misread.
    if (o.long) return v.startsWith('-') ? [`--${o.long}=${v}`] : [`--${o.long}`, v];
    return v.startsWith('-') ? [`-${o.short ?? ''}${v}`] : [`-${o.short ?? ''}`, v];
  });
}

interface Checked {
  problems: string[];
  resolved: Map<string, string[]>;
}

function check(spec: ToolSpecFromHelp, input: unknown): Checked {
  const problems: string[] = [];
  const resolved = new Map<string, string[]>();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { problems: [`expected a JSON object, got ${describeValue(input)}`], resolved };
  }
  const given = new Map(Object.entries(input).filter(([, v]) => v !== undefined && v !== null));
  const known = new Set([...spec.options, ...spec.arguments].map((s) => s.property));
  for (const key of given.keys()) {
    if (!known.has(key)) {
      problems.push(`unknown property "${key}" (known: ${[...known].join(', ') || 'none'})`);
    }
  }
  for (const s of [...spec.arguments, ...spec.options]) {
    if (!given.has(s.property)) {
      if (s.required) problems.push(`missing required property "${s.property}"`);
      continue;
    }
    const vals = values(s, given.get(s.property), problems);
    if (vals !== undefined) resolved.set(s.property, vals);
  }
  // A positional can only be given if the ones before it are: argv has no gaps.
  let gap: string | undefined;
  for (const a of spec.arguments) {
    if (!resolved.has(a.property)) gap ??= a.property;
    else if (gap !== undefined) problems.push(`"${a.property}" needs "${gap}" to be given too (they are positional)`);
  }
  return { problems, resolved };
}

/** Everything wrong with `input` for this spec; empty when toArgs will accept it. */
export function inputProblems(spec: ToolSpecFromHelp, input: unknown): string[] {
  return check(spec, input).problems;
}

export function toArgs(spec: ToolSpecFromHelp, input: unknown): string[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ToolError(`Invalid input for ${spec.name}: expected a JSON object, got ${describeValue(input)}.`);
  }
  const { problems, resolved } = check(spec, input);
  if (problems.length > 0) {
    throw new ToolError(`Invalid input for ${spec.name}:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
  const argv = [...spec.argvPrefix];
  for (const o of spec.options) argv.push(...optionArgs(o, resolved.get(o.property) ?? []));
  const positionals = spec.arguments.flatMap((a) => resolved.get(a.property) ?? []);
  // `--` stops option parsing, so a positional like "-2 + 3" is not read as a flag.
  if (positionals.some((p) => p.startsWith('-'))) argv.push('--');
  argv.push(...positionals);
  return argv;
}
