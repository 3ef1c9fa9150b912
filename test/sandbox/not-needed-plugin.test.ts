/**
 * The build's node-forge stand-in (scripts/not-needed-plugin.ts) on the
 * installed sandbox runtime: its TLS interception module still loads and
 * exports what the proxy imports, and a call into node-forge fails with an
 * error naming what is missing.
 */
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { notNeeded } from '../../scripts/not-needed-plugin.ts';
import { tempDir } from '../support/temp.ts';

const mitmCa = Bun.resolveSync('@anthropic-ai/sandbox-runtime/dist/sandbox/mitm-ca.js', import.meta.dir);

test('mitm-ca.js bundles without node-forge, loads, and fails by name when it would use it', async () => {
  const out = tempDir();
  const built = await Bun.build({ entrypoints: [mitmCa], target: 'bun', format: 'esm', outdir: out, plugins: [notNeeded] });
  expect(built.success).toBe(true);
  const text = await Bun.file(join(out, 'mitm-ca.js')).text();
  expect(text).not.toContain('node-forge/lib');
  const m = (await import(join(out, 'mitm-ca.js'))) as { CRL_PATH: string; createMitmCA: (opts: unknown) => unknown };
  expect(m.CRL_PATH).toBe('/srt.crl');
  expect(() => m.createMitmCA({})).toThrow(/node-forge is not in this build of moat/);
});

test('node-forge imported from anywhere else is left alone', async () => {
  const out = tempDir();
  const entry = join(out, 'entry.ts');
  await Bun.write(entry, "import forge from 'node-forge';\nexport const kind = typeof forge;\n");
  const built = await Bun.build({ entrypoints: [entry], target: 'bun', outdir: join(out, 'dist'), plugins: [notNeeded], external: ['node-forge'] });
  expect(built.success).toBe(true);
  expect(await Bun.file(join(out, 'dist', 'entry.js')).text()).toContain('from "node-forge"');
});
