/**
 * What the user's own references to MCP servers become in a prompt: a server
 * prompt run as `/mcp__server__prompt args`, and a resource attached with
 * `@server:uri`.
 */
import type { GetPromptResult, Prompt, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpToolName } from './mcp-tool.ts';

/** The slash command of a server prompt: named like its tools, `mcp__server__prompt`. */
export function promptCommandName(server: string, prompt: string): string {
  return mcpToolName(server, prompt);
}

export class PromptUsageError extends Error {}

/**
 * `/command a b "c d"` → the prompt's arguments, filled left to right; words
 * beyond the last argument join it (so a one-argument prompt takes the whole
 * line). A missing required argument is a PromptUsageError with the usage line.
 */
export function promptArguments(command: string, prompt: Prompt, line: string): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const words = [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  const out: Record<string, string> = {};
  declared.forEach((arg, i) => {
    const last = i === declared.length - 1;
    const value = last ? words.slice(i).join(' ') : words[i];
    if (value !== undefined && value !== '') out[arg.name] = value;
  });
  const missing = declared.filter((a) => a.required === true && out[a.name] === undefined);
  if (missing.length > 0) {
    const usage = declared.map((a) => (a.required === true ? `<${a.name}>` : `[${a.name}]`)).join(' ');
    throw new PromptUsageError(`/${command} needs ${missing.map((a) => a.name).join(', ')}. Usage: /${command} ${usage}`);
  }
  return out;
}

/** A prompt's messages as one text for the model: each message's text, embedded resources inline, other media named. */
export function promptText(result: GetPromptResult): string {
  const blocks = result.messages.map((m) => {
    const c = m.content;
    let text: string;
    if (c.type === 'text') text = c.text;
    else if (c.type === 'resource') text = 'text' in c.resource ? `<resource uri="${c.resource.uri}">\n${c.resource.text}\n</resource>` : `(resource ${c.resource.uri}: binary, not included)`;
    else if (c.type === 'resource_link') text = `(resource ${c.uri})`;
    else text = `(${c.type} content from the prompt, not included)`;
    return m.role === 'assistant' ? `<assistant>\n${text}\n</assistant>` : text;
  });
  return blocks.join('\n\n');
}

/** A resource read for `@server:uri`: its text contents, binary ones described. */
export function resourceText(server: string, uri: string, result: ReadResourceResult): string {
  const parts = result.contents.map((c) => {
    if ('text' in c) return c.text;
    const bytes = Math.floor((c.blob.length * 3) / 4);
    return `(binary ${c.mimeType ?? 'data'}, about ${bytes} bytes: not included)`;
  });
  return `<resource server="${server}" uri="${uri}">\n${parts.join('\n')}\n</resource>`;
}
