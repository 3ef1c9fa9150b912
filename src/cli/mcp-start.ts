/**
 * When MCP servers start in -p and stream-json: once the first model request
 * is answering (or after a short delay when none comes soon), so
 * preparing their sandboxes and spawning them never delays that request.
 * Their tools join the registry as each server connects.
 */
import { afterFirstEvent, type Provider } from '../providers/index.ts';

/** With no request by then (stream-json waiting for input), the servers start anyway. */
const FALLBACK_MS = 100;

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
