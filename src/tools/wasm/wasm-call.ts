/** One call of a WebAssembly tool: its argv from the input, its grants, a fresh sandboxed instance, and the output mapped for the model. */
import { runComponent, type LoadedComponent } from '../../sandbox/index.ts';
import { errorMessage, isWithin, realPathOrSelf } from '../../util/index.ts';
import { ToolError, type ToolContext, type ToolResult } from '../types.ts';
import { toArgs } from './args.ts';
import { grantsFor } from './grants.ts';
import type { CwdAccess } from './manifest.ts';
import { mapOutput } from './output.ts';
import { moveArgsToStdin } from './stdin-args.ts';
import { stoppedResult, type WasmToolDef } from './wasm-tool.ts';

export async function runWasmCall(def: WasmToolDef, cwdAccess: CwdAccess, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  const { spec, manifest } = def;
  const isolation = def.origin === 'bundled' ? 'in-process' : 'child';
  const argv = toArgs(spec, input);
  if (cwdAccess !== 'none' && !ctx.roots.some((r) => isWithin(r, realPathOrSelf(ctx.cwd)))) {
    throw new ToolError(`${spec.name} needs the working folder, but ${ctx.cwd} is outside the folders this session may use.`);
  }
  const grants = grantsFor({ ...manifest, cwd: cwdAccess }, { cwd: ctx.cwd, env: def.env, ...(def.allowPrivateNetwork === true ? { allowPrivateNetwork: true } : {}) });
  let loaded: LoadedComponent;
  try {
    loaded = await def.component();
  } catch (e) {
    throw new ToolError(`${spec.name} could not be loaded: ${errorMessage(e)}`);
  }
  // The bundled tools read long or NUL-carrying arguments from stdin; a drop-in tool gets argv as it is.
  const passed = def.origin === 'bundled' ? moveArgsToStdin(argv) : { argv };
  const r = await runComponent(loaded, {
    args: [def.argv0, ...passed.argv],
    ...(passed.stdin === undefined ? {} : { stdin: passed.stdin }),
    env: grants.env,
    preopens: grants.preopens,
    limits: def.limits,
    ...(grants.network === undefined ? {} : { network: grants.network }),
    isolation,
    signal: ctx.signal,
  });
  return stoppedResult(spec.name, r) ?? mapOutput(r.exitCode, r.stdout, r.stderr);
}
