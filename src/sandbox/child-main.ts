/** The sandbox child process: runs one WebAssembly call under a hard deadline. */
import { errorMessage } from '../util/index.ts';
import { fetchInit, isChildMessage, toWireFetch, toWireResult, b64, type ChildFetchMessage, type ChildRunMessage } from './child-protocol.ts';
import { loadCached, preparedFor } from './load.ts';
import { policyFetch } from './network-policy.ts';
import { runInProcess } from './run-in-process.ts';

/**
 * The entry of the sandbox child process. The CLI routes its hidden
 * `__sandbox-child` argument here: `process.exitCode = await runChildMain(rest)`.
 *
 * It reads one JSON message on stdin and writes one JSON reply on stdout:
 *  - `run`: run a cached component in-process (the parent SIGKILLs this
 *    process at the deadline, which is the point: nothing in-process can stop
 *    a busy wasm loop);
 *  - `fetch`: one policy-checked HTTP request, for the synchronous
 *    wasi:http host (a sync host call cannot await a fetch).
 */
export async function runChildMain(_argv: readonly string[]): Promise<number> {
  let message: unknown;
  try {
    message = JSON.parse(await Bun.stdin.text());
  } catch (e) {
    process.stderr.write(`sandbox child: bad input: ${errorMessage(e)}\n`);
    return 2;
  }
  if (!isChildMessage(message)) {
    process.stderr.write('sandbox child: unknown message\n');
    return 2;
  }
  try {
    const reply = message.mode === 'run' ? await run(message) : await fetchOnce(message);
    await Bun.write(Bun.stdout, JSON.stringify(reply));
    return 0;
  } catch (e) {
    process.stderr.write(`sandbox child: ${errorMessage(e)}\n`);
    return 2;
  }
}

async function run(m: ChildRunMessage): Promise<unknown> {
  const loaded = await loadCached(m.cacheDir, m.hash);
  if (loaded === undefined) throw new Error(`component ${m.hash} is not in the cache at ${m.cacheDir}`);
  const result = await runInProcess(preparedFor(loaded), {
    args: m.args,
    env: m.env,
    stdin: b64.decode(m.stdin),
    preopens: m.preopens,
    limits: m.limits,
    ...(m.network === undefined ? {} : { network: m.network }),
    isolation: 'in-process',
  }, { spare: false });
  return toWireResult(result);
}

async function fetchOnce(m: ChildFetchMessage): Promise<unknown> {
  return toWireFetch(await policyFetch(m.url, fetchInit(m), m.grant));
}
