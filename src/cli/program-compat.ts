/** Claude Code's print-mode flags that scripts and the Claude Agent SDK pass, declared on the root command. */
import { Option, type Command } from 'commander';
import { positiveInt } from './option-values.ts';

export function addCompatOptions(program: Command): void {
  program
    .addOption(
      new Option('--input-format <format>', 'text (default), or stream-json: JSON lines on stdin while it stays open (implies -p)')
        .choices(['text', 'stream-json'])
        .default('text'),
    )
    .option('--include-partial-messages', 'with stream-json output: stream_event lines (the model stream, event by event)')
    .option('--json-schema <schema>', 'the final answer is JSON valid against this JSON Schema, returned as structured_output')
    .option('--session-id <uuid>', 'the id the new session gets (a UUID)')
    .option('--fork-session', 'with --resume or --continue: go on in a new session and leave the old one as it was')
    .option('--no-session-persistence', 'save nothing: the session is not written to the database')
    .option('--settings <file-or-json>', 'a Claude Code settings file, or its JSON text')
    .option('--setting-sources <sources>', 'the settings files to read: a comma list of user, project, local')
    .option('--agents <json>', 'sub-agent definitions as JSON: {"name": {"description", "prompt", "tools", "model"}}')
    .option('--tools <tools>', 'the built-in tools offered: "default", "" for none, or names like "Bash,Read"')
    .option('--max-thinking-tokens <n>', 'extended thinking budget in tokens', positiveInt('--max-thinking-tokens'))
    .option('--replay-user-messages', 'with stream-json input and output: echo each user message back on stdout')
    .option('--debug [filter]', 'debug lines on stderr')
    .option('--dangerously-skip-permissions', 'the same as --permission-mode bypassPermissions')
    .addOption(new Option('--allow-dangerously-skip-permissions', 'accepted for Claude Code compatibility').hideHelp())
    .option('--permission-prompt-tool <tool>', 'who answers permission questions: stdio (the program on stdin/stdout, with stream-json input)')
    // Both spellings land in the same option value (commander camel-cases --allowed-tools to allowedTools).
    .addOption(new Option('--allowed-tools <rules...>', 'the same as --allowedTools').hideHelp())
    .addOption(new Option('--disallowed-tools <rules...>', 'the same as --disallowedTools').hideHelp());
}
