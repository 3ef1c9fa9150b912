import { componentNew } from '@bytecodealliance/jco-transpile/wasm-tools';
const core = await Bun.file('/tmp/fx/tool.core.wasm').bytes();
const adapter = await Bun.file('node_modules/@bytecodealliance/jco/lib/wasi_snapshot_preview1.command.wasm').bytes();
await Bun.write('/tmp/fx/tool.wasm', await componentNew(core, [['wasi_snapshot_preview1', adapter]]));
