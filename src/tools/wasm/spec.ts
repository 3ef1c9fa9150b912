/**
 * What a WebAssembly tool says about itself through its `--help` text, once
 * parsed: the options and arguments it takes, and the JSON Schema the model
 * sees. The schema and the argv mapping come from the same spec, so what the
 * model may send and what the tool accepts cannot drift apart.
 */

export type PermissionLevel = 'none' | 'read' | 'write' | 'execute';
export const PERMISSION_LEVELS: readonly PermissionLevel[] = ['none', 'read', 'write', 'execute'];

export type ValueType = 'string' | 'integer' | 'number' | 'boolean';

interface ValueSpec {
  /** The JSON property name the model uses (snake_case). */
  property: string;
  type: ValueType;
  /** Repeatable option (`<X>...`) or variadic argument: a JSON array. */
  multiple: boolean;
  required: boolean;
  /** As written in the help text (`10`, `radians`). */
  default?: string;
  enum?: string[];
  description: string;
}

export interface OptionSpec extends ValueSpec {
  kind: 'option';
  /** Long name without dashes (`precision`). */
  long?: string;
  /** Short letter without the dash (`p`). */
  short?: string;
  /** The value placeholder (`DIGITS`); absent for a presence flag (`--pretty`). */
  valueName?: string;
}

export interface ArgumentSpec extends ValueSpec {
  kind: 'argument';
  /** `EXPRESSION` for `<EXPRESSION>`. */
  valueName: string;
}

export interface CommandRef {
  name: string;
  description: string;
}

export interface JsonSchemaProperty {
  type: ValueType | 'array';
  description?: string;
  enum?: (string | number | boolean)[];
  default?: string | number | boolean;
  items?: { type: ValueType; enum?: (string | number | boolean)[] };
  minItems?: number;
}

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, JsonSchemaProperty>;
  required: string[];
  additionalProperties: false;
}

export interface ToolSpecFromHelp {
  type: 'tool_spec';
  /** The tool name the model sees: `calculate`, `base64_encode`. */
  name: string;
  /** The program as its help names it: `calculate`, `base64-encode`. */
  program: string;
  version?: string;
  /** The one-line description. */
  summary: string;
  /** The long description when there is one (from `--help`), else the summary. */
  description: string;
  usage?: string;
  keywords: string[];
  permissionLevel?: PermissionLevel;
  options: OptionSpec[];
  arguments: ArgumentSpec[];
  /** `Commands:` entries; each becomes its own tool, parsed from its own help. */
  commands: CommandRef[];
  /** The subcommand path put before the options: `['encode']` for base64_encode. */
  argvPrefix: string[];
  inputSchema: JsonSchemaObject;
}

export interface ParseError {
  type: 'parse_error';
  message: string;
}

export function isParseError(x: ToolSpecFromHelp | ParseError): x is ParseError {
  return x.type === 'parse_error';
}

/** `--url-safe` → `url_safe`, `dryRun` → `dry_run`, `FILE NAME` → `file_name`. */
export function snakeCase(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    // Letters of any script stay: a Chinese tool's `--模式` is `模式`, not an empty name.
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** Tool names the model APIs accept: `^[a-zA-Z0-9_-]{1,64}$`. */
export function toolName(parts: string[]): string {
  const name = parts
    .map((p) => snakeCase(p).replace(/[^a-z0-9_]/g, ''))
    .filter((p) => p !== '')
    .join('_');
  return (name === '' ? 'tool' : name).slice(0, 64);
}
