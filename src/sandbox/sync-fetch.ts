/** The wasi:http host's one way out: a policy-checked HTTP request made by the sandbox child while the guest's thread blocks. */
import { errorMessage } from '../util/index.ts';
import { childCommand } from './child-command.ts';
import { fromWireFetch, isWireFetchResult, type ChildFetchMessage } from './child-protocol.ts';
import type { PolicyResponse, Refusal } from './network-policy.ts';

/**
 * One policy-checked HTTP request, synchronously: the wasi:http host runs
 * inside a synchronous guest call and cannot await, so the request is made by
 * a child process while this thread blocks (at most until `deadlineMs`).
 */
export function fetchSync(m: Omit<ChildFetchMessage, 'mode'>, timeoutMs: number): PolicyResponse | Refusal {
  const message: ChildFetchMessage = { mode: 'fetch', ...m };
  const proc = Bun.spawnSync(childCommand(), {
    stdin: Buffer.from(JSON.stringify(message)),
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: Math.max(1, Math.ceil(timeoutMs)),
    killSignal: 'SIGKILL',
  });
  if (proc.exitedDueToTimeout === true) {
    return { ok: false, code: 'timeout', reason: `${m.url} timed out after ${Math.round(timeoutMs)} ms` };
  }
  let reply: unknown;
  try {
    reply = JSON.parse(proc.stdout.toString());
  } catch (e) {
    return { ok: false, code: 'connection', reason: `fetch helper failed: ${proc.stderr.toString().trim() || errorMessage(e)}` };
  }
  if (!isWireFetchResult(reply)) return { ok: false, code: 'connection', reason: 'fetch helper sent an unexpected reply' };
  return fromWireFetch(reply);
}
