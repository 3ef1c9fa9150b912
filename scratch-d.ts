import { loadComponent, preparedFor } from './src/sandbox/load.ts';
import { runInProcess } from './src/sandbox/run-in-process.ts';
import { DEFAULT_LIMITS } from './src/sandbox/types.ts';
const l = await loadComponent(await Bun.file('/tmp/fx/tool.wasm').bytes(), { cacheDir: '/tmp/fx/cache' });
const p = preparedFor(l);
const orig = p.instantiate;
p.instantiate = (g, i, core) => orig(g, i, (m, im) => { const inst = core(m, im); const mem = inst.exports.memory; console.log('inst', WebAssembly.Module.exports(m).map(e=>e.name).join(','), mem instanceof WebAssembly.Memory ? mem.buffer.byteLength : '-'); return inst; });
const r = await runInProcess(p, { args: ['tool', 'alloc', '64'], env: {}, preopens: [], limits: DEFAULT_LIMITS, isolation: 'in-process' });
console.log(r, new TextDecoder().decode(r.stdout));
