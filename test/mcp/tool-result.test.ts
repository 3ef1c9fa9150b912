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

describe('saved to files', () => {
  const saver = () => {
    const files = new Map<string, string | Uint8Array>();
    return { files, save: (suffix: string, data: string | Uint8Array) => (files.set(`/r/${suffix}`, data), `/r/${suffix}`) };
  };

  test('a result over the cap: saved whole, the model gets the path and a preview; one that cannot be saved is cut as before', () => {
    const s = saver();
    const text = 'z'.repeat(10_000);
    const r = mapToolResult({ content: [{ type: 'text', text }] }, { tool: 'mcp__s__t', maxTokens: 100, saver: s });
    expect(s.files.get('/r/output.txt')).toBe(text);
    expect(String(r.content)).toStartWith('[mcp__s__t returned 10,000 characters (1 lines), over the 100-token limit for one result. The whole output was saved to /r/output.txt');
    expect(String(r.content).length).toBeLessThan(2400);
    const failing = { save: () => { throw new Error('disk full'); } };
    expect(String(mapToolResult({ content: [{ type: 'text', text }] }, { tool: 'mcp__s__t', maxTokens: 100, saver: failing }).content)).toContain('[output truncated: mcp__s__t returned about');
    // Within the cap: nothing saved.
    const small = saver();
    expect(mapToolResult({ content: [{ type: 'text', text: 'short' }] }, { tool: 'mcp__s__t', maxTokens: 100, saver: small }).content).toBe('short');
    expect(small.files.size).toBe(0);
  });

  test('binary content (an embedded blob, audio) is saved with an extension from its type; without a saver it is described', () => {
    const s = saver();
    const blob = Buffer.from([1, 2, 3, 250]).toString('base64');
    const r = mapToolResult(
      { content: [{ type: 'text', text: 'here' }, { type: 'resource', resource: { uri: 'x://a.gz', mimeType: 'application/gzip', blob } }, { type: 'audio', mimeType: 'audio/wav', data: blob }] },
      { tool: 'mcp__s__t', maxTokens: 100, saver: s },
    );
    expect(r.content).toBe('here\n[resource x://a.gz] [binary application/gzip, 4 bytes, saved to /r/2.gz]\n[audio audio/wav, 4 bytes, saved to /r/3.wav]');
    expect([...(s.files.get('/r/2.gz') as Uint8Array)]).toEqual([1, 2, 3, 250]);
    expect(map({ content: [{ type: 'resource', resource: { uri: 'x://a', mimeType: 'application/octet-stream', blob } }] }).content).toBe('[resource x://a] [binary application/octet-stream, 4 bytes, not shown]');
  });
});
