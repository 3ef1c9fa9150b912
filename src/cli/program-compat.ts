/** Claude Code's print-mode flags that scripts and the Claude Agent SDK pass, declared on the root command. */
import { positiveInt } from './option-values.ts';
import type { RootOptionSpec } from './root-options.ts';

export const COMPAT_OPTIONS: readonly RootOptionSpec[] = [
  {
    flags: '--input-format <format>',
    description: 'text (default), or stream-json: JSON lines on stdin while it stays open (implies -p)',
    choices: ['text', 'stream-json'],
    default: 'text',
  },
  { flags: '--include-partial-messages', description: 'with stream-json output: stream_event lines (the model stream, event by event)' },
  { flags: '--json-schema <schema>', description: 'the final answer is JSON valid against this JSON Schema, returned as structured_output' },
  { flags: '--session-id <uuid>', description: 'the id the new session gets (a UUID)' },
  { flags: '--fork-session', description: 'with --resume or --continue: go on in a new session and leave the old one as it was' },
  { flags: '--no-session-persistence', description: 'save nothing: the session is not written to the database' },
  { flags: '--settings <file-or-json>', description: 'a Claude Code settings file, or its JSON text' },
  { flags: '--setting-sources <sources>', description: 'the settings files to read: a comma list of user, project, local' },
  { flags: '--agents <json>', description: 'sub-agent definitions as JSON: {"name": {"description", "prompt", "tools", "model"}}' },
  // Several values (`--tools Bash Read`) or one list (`--tools Bash,Read`), as Claude Code takes them; one comma list for onlyTools.
  { flags: '--tools <tools...>', description: 'the built-in tools offered: "default", "" for none, or names like Bash Read or "Bash,Read"', parse: (v, prev) => (prev === undefined ? v : `${String(prev)},${v}`) },
  { flags: '--max-thinking-tokens <n>', description: 'extended thinking budget in tokens', parse: positiveInt('--max-thinking-tokens') },
  { flags: '--replay-user-messages', description: 'with stream-json input and output: echo each user message back on stdout' },
  { flags: '--debug [filter]', description: 'debug lines on stderr' },
  { flags: '--dangerously-skip-permissions', description: 'the same as --permission-mode bypassPermissions' },
  { flags: '--allow-dangerously-skip-permissions', description: 'accepted for Claude Code compatibility', hidden: true },
  { flags: '--permission-prompt-tool <tool>', description: 'who answers permission questions: stdio (the program on stdin/stdout, with stream-json input)' },
  // Both spellings land in the same option value (commander camel-cases --allowed-tools to allowedTools).
  { flags: '--allowed-tools <rules...>', description: 'the same as --allowedTools', hidden: true },
  { flags: '--disallowed-tools <rules...>', description: 'the same as --disallowedTools', hidden: true },
];
