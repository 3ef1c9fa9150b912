/** The build's text modules (scripts/text-modules.ts): an imported .md or .sql file becomes a module exporting its exact text. */
import { expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textModulesPlugin } from '../../scripts/text-modules.ts';
import { tempDir } from '../support/temp.ts';

test('a text import is bundled as its exact string (quotes, backslashes, template syntax, non-ASCII)', async () => {
  const root = join(tempDir('moat-text-modules-'), 'src');
  mkdirSync(root);
  const text = '# Title\n\nQuotes " and \\ backslashes, `backticks`, ${not a template}, unicode ⛨ 漢字\n';
  writeFileSync(join(root, 'note.md'), text);
  writeFileSync(join(root, 'schema.sql'), 'CREATE TABLE t (a TEXT);\n');
  writeFileSync(join(root, 'entry.ts'), "import note from './note.md' with { type: 'text' };\nimport sql from './schema.sql' with { type: 'text' };\nexport const both = [note, sql];\n");
  const built = await Bun.build({ entrypoints: [join(root, 'entry.ts')], target: 'bun', format: 'esm', plugins: [textModulesPlugin] });
  expect(built.success).toBe(true);
  expect(built.outputs.map((o) => o.kind)).toEqual(['entry-point']);
  const out = join(root, 'out.js');
  writeFileSync(out, await built.outputs[0]!.text());
  const { both } = (await import(out)) as { both: string[] };
  expect(both).toEqual([text, 'CREATE TABLE t (a TEXT);\n']);
});
