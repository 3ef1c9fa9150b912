// The build-time change to yoga's loading (scripts/yoga-wasm-plugin.ts) lays out exactly as the published yoga does.
import { expect, test } from 'bun:test';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Yoga from 'yoga-layout';
import { wasmOfGlue, yogaGlue, yogaWasmPlugin } from '../../scripts/yoga-wasm-plugin.ts';
import { tempDir } from '../support/temp.ts';

/** A tree with the features Ink's boxes use: rows, columns, padding, flex-grow, wrapping text widths. */
const LAYOUT = `
function layout(Y, width) {
  const root = Y.Node.create();
  root.setWidth(width);
  root.setFlexDirection(Y.FLEX_DIRECTION_COLUMN);
  root.setPadding(Y.EDGE_ALL, 1);
  const row = Y.Node.create();
  row.setFlexDirection(Y.FLEX_DIRECTION_ROW);
  row.setFlexWrap(Y.WRAP_WRAP);
  for (const [i, w] of [7, 30, 12, 45].entries()) {
    const child = Y.Node.create();
    child.setWidth(w);
    child.setHeight(i + 1);
    child.setMargin(Y.EDGE_RIGHT, 1);
    row.insertChild(child, i);
  }
  const grow = Y.Node.create();
  grow.setFlexGrow(1);
  grow.setMinHeight(2);
  root.insertChild(row, 0);
  root.insertChild(grow, 1);
  root.calculateLayout(undefined, 40, Y.DIRECTION_LTR);
  const boxes = [];
  const walk = (n) => {
    const l = n.getComputedLayout();
    boxes.push([l.left, l.top, l.width, l.height]);
    for (let i = 0; i < n.getChildCount(); i++) walk(n.getChild(i));
  };
  walk(root);
  root.freeRecursive();
  return boxes;
}`;

test('yoga built with the plugin compiles ahead and lays out as published yoga does', async () => {
  const dir = tempDir('yoga-plugin-');
  writeFileSync(
    join(dir, 'entry.js'),
    [
      "const { start } = await import('moat:yoga-wasm');",
      'await start();',
      `const Y = (await import(${JSON.stringify(Bun.resolveSync('yoga-layout', import.meta.dir))})).default;`,
      LAYOUT,
      'console.log(JSON.stringify([60, 80, 100].map((w) => layout(Y, w))));',
    ].join('\n'),
  );
  const built = await Bun.build({ entrypoints: [join(dir, 'entry.js')], outdir: join(dir, 'out'), target: 'bun', format: 'esm', plugins: [yogaWasmPlugin()], root: dir });
  expect(built.success).toBe(true);
  const out = readdirSync(join(dir, 'out'));
  // The wasm is a file of its own, and no base64 copy is left in the bundle.
  expect(out.some((f) => f.endsWith('.wasm'))).toBe(true);
  // (AGFzbQ is base64 for the wasm magic number, \0asm.)
  expect(readFileSync(join(dir, 'out', 'entry.js'), 'utf8').includes('base64,AGFzbQ')).toBe(false);

  // A bundle (not an executable) names its files relative to its folder.
  const run = Bun.spawnSync(['bun', 'entry.js'], { cwd: join(dir, 'out'), stdout: 'pipe', stderr: 'pipe' });
  expect(run.stderr.toString()).toBe('');
  const patched = JSON.parse(run.stdout.toString()) as number[][][];

  // The reference: the published yoga-layout, loaded the usual way in this process.
  const layout = new Function(`${LAYOUT}; return layout;`)() as (y: typeof Yoga, width: number) => number[][];
  const reference = [60, 80, 100].map((w) => layout(Yoga, w));
  expect(patched).toEqual(reference);
  expect(patched[0]?.length).toBe(7);
  // Not a degenerate layout: the row wraps differently at each width.
  expect(new Set(patched.map((boxes) => JSON.stringify(boxes))).size).toBe(3);
});

test("the wasm is read from yoga's glue, and a glue without it stops the build", () => {
  const wasm = wasmOfGlue(readFileSync(yogaGlue(), 'utf8'));
  // WebAssembly's magic number and version 1.
  expect([...wasm.subarray(0, 8)]).toEqual([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  expect(WebAssembly.validate(wasm)).toBe(true);
  expect(() => wasmOfGlue('export default () => {};')).toThrow('yoga-layout changed');
});
