/** mapToolResult: an MCP tool result as moat's, structured content kept beside the server's text, within the output cap. */
import { describe, expect, test } from 'bun:test';
import { mapToolResult } from '../../src/mcp/index.ts';

const map = (result: Parameters<typeof mapToolResult>[0], maxTokens = 25_000) => mapToolResult(result, { tool: 'mcp__s__t', maxTokens });

describe('structured content', () => {
  test('kept after a text that says something else', () => {
    const r = map({ content: [{ type: 'text', text: 'It is 22 °C in Chicago.' }], structuredContent: { temperature: 22, station: 'KORD' } });
    expect(r.content).toBe('It is 22 °C in Chicago.\nStructured result: {"temperature":22,"station":"KORD"}');
  });

  test('not repeated when the text already is it (what servers send for clients without structured content)', () => {
    const structured = { temperature: 22, conditions: ['sunny'] };
    const r = map({ content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured });
    expect(r.content).toBe(JSON.stringify(structured, null, 2));
  });

  test('not repeated when the text holds every value of it (server-filesystem wraps its text as {content})', () => {
    const text = 'line one\n"quoted" line two';
    expect(map({ content: [{ type: 'text', text }], structuredContent: { content: text } }).content).toBe(text);
    const partly = map({ content: [{ type: 'text', text: 'It is 22 °C.' }], structuredContent: { temperature: 22, humidity: 80 } });
    expect(partly.content).toBe('It is 22 °C.\nStructured result: {"temperature":22,"humidity":80}');
  });

  test('alone as JSON when there is no text; next to an image', () => {
    expect(map({ content: [], structuredContent: { ok: true } }).content).toBe('{"ok":true}');
    const withImage = map({ content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }], structuredContent: { ok: true } });
    expect(withImage.content).toEqual([{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, { type: 'text', text: '{"ok":true}' }]);
  });

  test('counts toward the cap like any text', () => {
    const r = map({ content: [{ type: 'text', text: 'summary' }], structuredContent: { rows: 'x'.repeat(400) } }, 10);
    expect(String(r.content)).toStartWith('summary\nStructured result: {"rows":"xxxxx\n');
    expect(String(r.content)).toContain('[output truncated: mcp__s__t returned about');
  });
});
