/** An editor's prompt blocks as user-message parts: text, images, links, attached files, and what is refused. */
import { describe, expect, test } from 'bun:test';
import { promptParts } from '../../src/acp/prompt-parts.ts';

describe('promptParts', () => {
  test('text, an image, a file link and an attached file keep their order; file URIs become paths', () => {
    expect(
      promptParts([
        { type: 'text', text: 'look' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource_link', uri: 'file:///work/a%20b.ts', name: 'a b.ts' },
        { type: 'resource', resource: { uri: 'file:///work/n.md', text: 'notes' } },
        { type: 'resource', resource: { uri: 'file:///work/p.png', mimeType: 'image/png', blob: 'AAAA' } },
        { type: 'resource', resource: { uri: 'https://x.example/f.bin', mimeType: 'application/octet-stream', blob: 'AAAA' } },
      ]),
    ).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'text', text: '[Attached file: /work/a b.ts]' },
      { type: 'text', text: '<attached-file path="/work/n.md">\nnotes\n</attached-file>' },
      { type: 'image', mediaType: 'image/png', data: 'AAAA' },
      { type: 'text', text: '[Attached binary file: https://x.example/f.bin (application/octet-stream)]' },
    ]);
  });

  test('an image type the models do not take, audio, and an empty prompt are one-line errors', () => {
    expect(() => promptParts([{ type: 'image', mimeType: 'image/tiff', data: 'AA' }])).toThrow('images of type image/tiff are not supported (png, jpeg, gif, webp are)');
    expect(() => promptParts([{ type: 'audio', mimeType: 'audio/wav', data: 'AA' }])).toThrow('audio prompts are not supported');
    expect(() => promptParts([])).toThrow('the prompt is empty');
  });

  test('a malformed file URI stays as written rather than failing the prompt', () => {
    expect(promptParts([{ type: 'resource_link', uri: 'file://host/%E0%A4%A', name: 'x' }])).toEqual([{ type: 'text', text: '[Attached file: file://host/%E0%A4%A]' }]);
  });
});
