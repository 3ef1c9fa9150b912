/** Which hosts `WebFetch(domain:…)` allow rules open to processes in the OS sandbox. */
import type { Rule } from './rule.ts';

/** `*://host` for each WebFetch domain allowed, over http and https; `*` (any host) is not carried over to processes. */
export function ruleNetworkHosts(allow: readonly Rule[]): string[] {
  const hosts = new Set<string>();
  for (const rule of allow) if (rule.type === 'domain' && rule.domain !== '*') hosts.add(`*://${rule.domain}`);
  return [...hosts];
}
