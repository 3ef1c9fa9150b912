/** The `moat sessions export --format markdown` document. */
import type { AssistantPart, ImagePart, TextPart, UserPart } from '../providers/index.ts';
import { assertNever } from '../util/index.ts';
import type { Store } from './store.ts';

/** A code fence longer than any backtick run inside `body`, so the block cannot end early. */
function fenced(body: string, lang = ''): string {
  const longest = Math.max(0, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${body.replace(/\n$/, '')}\n${fence}`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
}

function resultText(content: (TextPart | ImagePart)[]): string {
  return content.map((p) => (p.type === 'text' ? p.text : `[image: ${p.mediaType}]`)).join('\n');
}

function ms(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n} ms`;
}

/**
 * A readable transcript for `moat sessions export --format markdown`: the
 * user's and the assistant's text, thinking as quotes, and every tool call
 * with its input and its result in fenced blocks.
 */
export function exportSessionMarkdown(store: Store, id: string): string {
  const s = store.sessions.require(id);
  const messages = store.messages.list(id);
  const calls = new Map(store.toolCalls.list(id).map((c) => [c.toolUseId, c]));
  const totals = store.usage.totals(id);
  const names = new Map<string, string>();

  const firstPrompt = messages
    .find((m) => m.message.role === 'user' && m.message.content.some((p) => p.type === 'text'))
    ?.message.content.find((p): p is TextPart => p.type === 'text')
    ?.text.split('\n')[0];
  const title = s.title ?? (firstPrompt && firstPrompt.length > 80 ? `${firstPrompt.slice(0, 79)}…` : firstPrompt);

  const out: string[] = [`# ${title || `Session ${s.id}`}`, ''];
  out.push(`- Session: \`${s.id}\`${s.parentId ? ` (sub-agent of \`${s.parentId}\`)` : ''}`);
  out.push(`- Directory: \`${s.cwd}\`${s.gitBranch ? ` on branch \`${s.gitBranch}\`` : ''}`);
  out.push(`- Model: ${s.model}`);
  out.push(`- Started: ${new Date(s.createdAt).toISOString()}, last active ${new Date(s.updatedAt).toISOString()}`);
  const u = totals.usage;
  out.push(
    `- Usage: ${u.inputTokens} input, ${u.outputTokens} output, ${u.cacheReadInputTokens} cache-read, ` +
      `${u.cacheCreationInputTokens} cache-write tokens; $${totals.costUsd.toFixed(4)} over ${totals.turns} turn${totals.turns === 1 ? '' : 's'}`,
  );

  const userPart = (p: UserPart): string[] => {
    switch (p.type) {
      case 'text':
        return [p.text];
      case 'image':
        return [`[image: ${p.mediaType}]`];
      case 'tool_result': {
        const name = names.get(p.toolUseId) ?? 'tool';
        return [`**${name} ${p.isError ? 'failed' : 'result'}:**`, fenced(resultText(p.content))];
      }
      default:
        return assertNever(p, 'user part');
    }
  };
  const assistantPart = (p: AssistantPart): string[] => {
    switch (p.type) {
      case 'text':
        return [p.text];
      case 'thinking':
        return [quote(`*Thinking:* ${p.thinking}`)];
      case 'redacted_thinking':
        return [quote('*Thinking (redacted)*')];
      case 'tool_use': {
        names.set(p.id, p.name);
        const call = calls.get(p.id);
        const meta = [`\`${p.id}\``, ...(call ? [ms(call.durationMs)] : [])].join(', ');
        return [`**Tool call: ${p.name}** (${meta})`, fenced(JSON.stringify(p.input, null, 2), 'json')];
      }
      default:
        return assertNever(p, 'assistant part');
    }
  };

  for (const { message } of messages) {
    const blocks = message.role === 'user' ? message.content.flatMap(userPart) : message.content.flatMap(assistantPart);
    // A user message carrying only tool results continues the assistant's turn: no heading.
    const onlyResults = message.role === 'user' && message.content.every((p) => p.type === 'tool_result');
    out.push('');
    if (!onlyResults) out.push(message.role === 'user' ? '## User' : '## Assistant', '');
    out.push(blocks.join('\n\n'));
  }
  return `${out.join('\n')}\n`;
}
