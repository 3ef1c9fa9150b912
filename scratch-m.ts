import { capMemory, readMemories } from './src/sandbox/wasm/memory-cap.ts';
const m = await Bun.file(`/tmp/fx/cache/076f81e00d141a1842b9d678d7dc9cbad8da8d91ac6dce31b5ebb902e2550dda/main.metered.wasm`).bytes();
const c = capMemory(m, 256);
console.log(readMemories(m), readMemories(c));
const mod = new WebAssembly.Module(c);
console.log(WebAssembly.Module.exports(mod), WebAssembly.Module.imports(mod).filter(i=>i.kind!=='function'));
