/** The module the build puts in place of bundled-parse.ts (src/skills/bundled-module.ts): the same skills and agents, bodies read on use. */
import { expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledModule } from '../../src/skills/bundled-module.ts';
import { parseBundled } from '../../src/skills/bundled-parse.ts';
import { tempDir } from '../support/temp.ts';

type Parsed = ReturnType<typeof parseBundled>;

async function load(): Promise<{ dir: string; module: { parseBundled: () => Parsed }; source: string }> {
  const dir = tempDir('moat-bundled-module-');
  const { source, bodies } = bundledModule('./bodies.json');
  writeFileSync(join(dir, 'bodies.json'), bodies);
  writeFileSync(join(dir, 'bundled-parse.js'), source);
  return { dir, module: (await import(join(dir, 'bundled-parse.js'))) as { parseBundled: () => Parsed }, source };
}

test('gives what parsing the files gives, bodies and prompts included', async () => {
  const { module } = await load();
  expect(module.parseBundled()).toEqual(parseBundled());
  // A spread copies the body too: nothing that copies a skill loses it.
  const [skill] = module.parseBundled().skills;
  expect({ ...skill }.body).toBe(parseBundled().skills[0]?.body ?? '');
});

test('no body or prompt is in the code; each is read from the file when first asked for', async () => {
  const { dir, module, source } = await load();
  const real = parseBundled();
  for (const text of [...real.skills.map((s) => s.body), ...real.agents.map((a) => a.systemPrompt)]) {
    expect(source).not.toContain(JSON.stringify(text).slice(1, 60));
  }
  const parsed = module.parseBundled();
  expect(parsed.skills.map((s) => s.description)).toEqual(real.skills.map((s) => s.description));
  const count = real.skills.length + real.agents.length;
  writeFileSync(join(dir, 'bodies.json'), JSON.stringify(Array.from({ length: count }, (_, i) => `body ${i}`)));
  expect(parsed.skills[1]?.body).toBe('body 1');
  expect(parsed.agents[0]?.systemPrompt).toBe(`body ${real.skills.length}`);
});
