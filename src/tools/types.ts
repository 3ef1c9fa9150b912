/** The tool contract: effects, intents, context and results. */
import type { z } from 'zod';
import type { ImagePart, TextPart } from '../providers/index.ts';
import type { SandboxGrant, SandboxPolicy } from '../contracts/index.ts';

/** What a tool does to the world. The runner parallelises `read` calls and serialises the rest. */
export type Effect = 'read' | 'write' | 'execute' | 'network';

export type Access = 'read' | 'write';

/**
 * What one call will do, computed before it runs. Permission rules match on it
 * and the approval dialog shows it; denial messages quote it.
 */
export interface CallIntent {
  /** Claude-Code style rule name this call is matched under: Bash, Read, Edit, WebFetch, … */
  ruleName: string;
  /** The value rules match against: the command for Bash, the path for file tools, the host for WebFetch. */
  subject?: string;
  /** Absolute, lexically normalised paths the call touches. Checked for containment in the allowed roots. */
  paths: { path: string; access: Access }[];
  /** One line for the approval dialog and for denial messages. */
  summary: string;
  /** A preview for the approval dialog, e.g. the diff an edit would make. */
  preview?: ToolDisplay;
  /** The folder the call runs in, when it is not the project root: relative paths in a command resolve against it. */
  cwd?: string;
  /** A command asking for more than the read-only OS sandbox: the grant the user is asked for. */
  sandboxRequest?: 'workspace-write' | 'off';
}

export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** Present-tense form shown while the item is in progress ("Running tests"). */
  activeForm?: string;
}

/** One hunk of a diff, as jsdiff's `structuredPatch` (and Claude Code's `tool_use_result`) give it. */
export interface PatchHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Structured data for the UI; the model never sees it. */
export type ToolDisplay =
  /** `hunks` are `patch`'s own, kept so readers need not parse it again. */
  | { type: 'diff'; path: string; patch: string; hunks: PatchHunk[]; added: number; removed: number; created: boolean }
  | { type: 'file_read'; path: string; startLine: number; lines: number; totalLines: number; image?: boolean }
  | {
      type: 'command';
      command: string;
      exitCode: number | null;
      durationMs: number;
      /** Tail of the (merged) output; live while running. */
      output: string;
      timedOut?: boolean;
      /** The OS sandbox grants it ran with; absent: no sandbox configured. */
      sandbox?: SandboxGrant;
      /** What the OS sandbox refused (one line each). */
      violations?: string[];
    }
  | { type: 'todos'; items: TodoItem[] }
  | { type: 'matches'; count: number; truncated: boolean }
  | { type: 'listing'; path: string; entries: number }
  | { type: 'text'; text: string };

export interface ToolResult {
  /** For the model. */
  content: string | (TextPart | ImagePart)[];
  isError?: boolean;
  /** A failure that may pass if tried again (a timeout, a dropped connection, a 5xx): `[tools.<name>] retry` retries only these. */
  retryable?: boolean;
  /** For the UI. */
  display?: ToolDisplay;
}

/** Remembers which files the session has read, so `write` can refuse blind overwrites. */
export interface FileState {
  markRead(absPath: string): void;
  wasRead(absPath: string): boolean;
}

export interface TodoState {
  get(): TodoItem[];
  set(items: TodoItem[]): void;
}

/**
 * Everything a tool may use. Tools never reach for globals or process.cwd():
 * sub-agents run the same tools in other worktrees.
 */
export interface ToolContext {
  cwd: string;
  /** Real paths of the folders file tools may touch (cwd + --add-dir). */
  roots: readonly string[];
  /** Absolute paths outside the roots that a permission rule or the user approved for this call. */
  approvedPaths: readonly string[];
  signal: AbortSignal;
  sessionId: string;
  toolUseId: string;
  files: FileState;
  todos: TodoState;
  /** Default and maximum bash timeouts, from config. */
  bashTimeoutMs: number;
  /** The OS sandbox processes run in (from config); absent: none configured, processes run as moat does. */
  processSandbox?: SandboxPolicy;
  /** The grants the permission gate chose for this call (read-only, workspace-write, or off). */
  sandbox?: SandboxGrant;
  /** Live progress for the UI (e.g. the tail of a running command). */
  onUpdate(display: ToolDisplay): void;
}

/** Context available before a call runs, to compute its intent. */
export type IntentContext = Pick<ToolContext, 'cwd' | 'roots'>;

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  /** For the model; lives in a description file beside the tool. */
  description: string;
  /** The single source of the input type and of the JSON Schema sent to the model. */
  inputSchema: S;
  effect: Effect;
  intent(input: z.infer<S>, ctx: IntentContext): CallIntent;
  /**
   * The preview a person approves, when it needs the disk (an edit's diff
   * with the file's real line numbers). Only called before asking; undefined
   * or a failure keeps the intent's own preview.
   */
  approvalPreview?(input: z.infer<S>, ctx: IntentContext): Promise<CallIntent['preview']>;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
  /**
   * Loads the module the calls run in, which `execute` imports on demand. Not
   * before a run's first request (the built-in tools' calls loaded up front
   * cost -p's first request 12.2 ms: CPU +15.6 ms, RSS +1.6 MB;
   * scripts/bench/startup.ts, interleaved n=12, load 1.3), but while the
   * model answers it (agent/prepare-tools.ts), so the first call does not
   * wait for it. The read-only built-ins give it; the tools that act (Bash,
   * Edit, Write, WebFetch, HttpRequest: the sandbox's runner and the network
   * policy among their modules) load with their first call: loaded ahead,
   * they ran enough code that the JIT compiled during the answer, and the
   * first Read after a streamed answer came later (n=30: 8.5 against 7.7 ms).
   */
  load?(): Promise<unknown>;
  /**
   * The JSON Schema sent to the model, when it is not derived from
   * `inputSchema` at run time: a WebAssembly tool's schema comes from its help
   * text (data, not a type we wrote), and `inputSchema` then validates against
   * that spec; moat's own tools carry the conversion of their zod schema made
   * while bundling (inputJsonSchemaOf, util/json-schema.ts), so start-up converts none.
   */
  jsonSchema?: Record<string, unknown>;
  /** Runs its work as a process inside the OS sandbox (bash): offered in plan mode when the sandbox is on. */
  osSandboxed?: boolean;
  /** Extra words `tool_search` matches besides the name and the description. */
  keywords?: readonly string[];
  /** Whether running this call again does no more than running it once (retries need it); default: read-only tools are. */
  idempotent?(input: z.infer<S>): boolean;
}

/** A recoverable failure: goes back to the model as an is_error result, worded as an instruction. */
export class ToolError extends Error {
  /** The failure may pass if tried again (a timeout, a dropped connection, a 5xx). */
  readonly retryable: boolean;
  constructor(message: string, opts: { retryable?: boolean } = {}) {
    super(message);
    this.name = 'ToolError';
    this.retryable = opts.retryable ?? false;
  }
}

export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** A tool of any input schema, as registries and runners hold them. */
export type AnyTool = Tool<z.ZodType>;
