/**
 * Turns the messages of a resumed session into transcript items, so
 * `--resume` / `--continue` / `/resume` show the earlier conversation the way
 * it looked when it happened (tool cards collapsed, without their live data).
 */
import type { Message } from '../../agent/index.ts';
import type { StaticItemInput, ToolCallView } from './types.ts';

export function itemsFromHistory(messages: Message[]): StaticItemInput[] {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const m of messages) {
    if (m.role !== 'user') continue;
    for (const p of m.content) {
      if (p.type === 'tool_result') {
        const text = p.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mediaType}]`)).join('\n');
        results.set(p.toolUseId, { text, isError: p.isError });
      }
    }
  }
  const items: StaticItemInput[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      const text = m.content
        .filter((p) => p.type === 'text')
        .map((p) => (p.type === 'text' ? p.text : ''))
        .join('\n')
        .trim();
      if (text) items.push({ kind: 'user', text });
      continue;
    }
    let first = true;
    for (const p of m.content) {
      switch (p.type) {
        case 'text':
          if (p.text.trim()) {
            items.push({ kind: 'markdown', text: p.text.trim(), first });
            first = false;
          }
          break;
        case 'thinking':
          if (p.thinking.trim()) items.push({ kind: 'thinking', text: p.thinking.trim(), seconds: 0 });
          break;
        case 'redacted_thinking':
          break;
        case 'tool_use': {
          const r = results.get(p.id);
          const call: ToolCallView = {
            id: p.id,
            name: p.name,
            json: '',
            input: p.input,
            status: r === undefined ? 'aborted' : r.isError ? 'error' : 'done',
            ...(r === undefined ? {} : { content: r.text }),
          };
          items.push({ kind: 'tool', call });
          break;
        }
      }
    }
  }
  return items;
}
