import { transpileComponent } from './src/sandbox/transpile.ts';
const comp = await Bun.file('/tmp/fx/tool.wasm').bytes();
let t = performance.now();
const r = await transpileComponent(comp, 'component');
console.log('first', performance.now() - t, [...r.files.keys()], r.imports.length, r.exports);
t = performance.now();
await transpileComponent(comp, 'component');
console.log('second', performance.now() - t);
console.log(Object.keys(require.cache).filter((k) => k.includes('preview2') || k.includes('bindgen')));
