/** Asks a tool for its help text and parses its spec. */
import { decodeHelp } from './decode.ts';
import { parseHelp } from './help-parser.ts';
import { toolName, type ParseError, type ToolSpecFromHelp } from './spec.ts';

/**
 * Asks a program for its help (`--help` and `-h`) and, for programs with
 * subcommands, asks each subcommand too. Every leaf command becomes one tool
 * (`base64_encode`, `base64_decode`). How the program runs is the caller's
 * business (the sandbox, or a native process in tests).
 */

export interface HelpRun {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
}

export type HelpRunner = (args: string[]) => Promise<HelpRun>;

export interface DiscoverOptions {
  /** How deep to follow `Commands:`: 1 means `tool sub`, 2 `tool sub subsub`. */
  maxDepth?: number;
  /** Subcommands beyond this many are ignored (a tool is not a command suite). */
  maxCommands?: number;
}

/** Some programs print help on stderr (Go's flag package), some exit non-zero after it. */
function helpText(run: HelpRun): string {
  const out = decodeHelp(run.stdout).text;
  return out.trim() !== '' ? out : decodeHelp(run.stderr).text;
}

async function specFor(run: HelpRunner, prefix: string[]): Promise<ToolSpecFromHelp | ParseError> {
  const [long, short] = await Promise.all([run([...prefix, '--help']), run([...prefix, '-h'])]);
  return parseHelp(helpText(long), helpText(short));
}

export async function discoverTool(run: HelpRunner, opts: DiscoverOptions = {}): Promise<ToolSpecFromHelp[] | ParseError> {
  const maxDepth = opts.maxDepth ?? 2;
  const maxCommands = opts.maxCommands ?? 32;
  const root = await specFor(run, []);
  if (root.type === 'parse_error') return root;
  const out: ToolSpecFromHelp[] = [];
  const visit = async (spec: ToolSpecFromHelp, path: string[], depth: number): Promise<ParseError | undefined> => {
    if (spec.commands.length === 0 || depth >= maxDepth) {
      out.push(spec);
      return undefined;
    }
    for (const cmd of spec.commands.slice(0, maxCommands)) {
      const prefix = [...path, cmd.name];
      const sub = await specFor(run, prefix);
      if (sub.type === 'parse_error') return { type: 'parse_error', message: `${prefix.join(' ')} --help: ${sub.message}` };
      // The parent's name is the namespace; the sub's own first line may say "base64-encode" or nothing.
      sub.name = toolName([root.program, ...prefix]);
      sub.argvPrefix = prefix;
      if (sub.summary === '') sub.summary = cmd.description;
      if (sub.description === '') sub.description = cmd.description;
      sub.version ??= spec.version;
      if (sub.permissionLevel === undefined && spec.permissionLevel !== undefined) sub.permissionLevel = spec.permissionLevel;
      if (sub.keywords.length === 0) sub.keywords = spec.keywords;
      const err = await visit(sub, prefix, depth + 1);
      if (err) return err;
    }
    return undefined;
  };
  const err = await visit(root, [], 0);
  return err ?? out;
}
