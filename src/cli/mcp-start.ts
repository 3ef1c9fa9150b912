/**
 * When MCP servers start in -p and stream-json: once the first model request
 * is answering (or after a short delay when none comes soon), so
 * preparing their sandboxes and spawning them never delays that request.
 * Their tools join the registry as each server connects.
 */
import { afterFirstEvent, type Provider } from '../providers/index.ts';

/**
 * With no request by then (stream-json waiting for input), the servers start
 * anyway. Not sooner: a -p start-up on a busy machine takes hundreds of
 * milliseconds, and servers spawned meanwhile compete with it for the CPU;
 * their tools are in the first request from the cache, and servers without
 * a cached list start at once anyway (McpManager.startUncached).
 */
const FALLBACK_MS = 1000;

export function startAfterFirstRequest(provider: Provider, start: () => void): Provider {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    start();
  };
  const timer = setTimeout(once, FALLBACK_MS);
  return afterFirstEvent(provider, once);
}
