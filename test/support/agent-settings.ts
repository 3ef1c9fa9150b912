import type { AgentSettings } from '../../src/agent/index.ts';

/** Settings for an in-process session rooted at `cwd`: short retries, no caps. */
export function testSettings(cwd: string, over: Partial<AgentSettings> = {}): AgentSettings {
  return {
    model: 'claude-sonnet-4-5',
    maxTokens: 1000,
    permissionMode: 'default',
    allow: [],
    deny: [],
    cwd,
    addDirs: [],
    projectRoot: cwd,
    home: cwd,
    idleTimeoutMs: 5000,
    bashTimeoutMs: 10_000,
    retryBaseMs: 10,
    ...over,
  };
}
