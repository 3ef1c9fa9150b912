/** The session settings of a run, from the loaded config and the command-line flags. */
import { homedir } from 'node:os';
import { outputValidator, type AgentSettings } from '../agent/index.ts';
import type { LoadedConfig } from '../config/index.ts';
import { parseRuleList } from '../tools/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { processSandboxFrom } from './os-sandbox-setup.ts';
import type { RootOptions } from './program.ts';

function rules(values: string[], what: string) {
  try {
    return parseRuleList(values);
  } catch (e) {
    throw new MoatError('usage', `${what}: ${errorMessage(e)}`);
  }
}

export function settingsFrom(loaded: LoadedConfig, opts: RootOptions, cwd: string): AgentSettings {
  const c = loaded.config;
  const allow = rules(c.permissions.allow, 'allow rules');
  const deny = rules(c.permissions.deny, 'deny rules');
  const ask = rules(c.permissions.ask, 'ask rules');
  const home = process.env.HOME || homedir();
  const retryBase = Number(process.env.MOAT_RETRY_BASE_MS);
  return {
    model: c.model,
    ...(c.fallback.length > 0 ? { fallbackModels: c.fallback } : {}),
    maxTurns: c.maxTurns,
    maxBudgetUsd: c.maxBudgetUsd,
    maxTokens: c.maxTokens,
    ...(c.thinkingBudget === undefined ? {} : { thinkingBudget: c.thinkingBudget }),
    permissionMode: c.permissionMode,
    allow,
    deny,
    ...(ask.length === 0 ? {} : { ask }),
    cwd,
    addDirs: c.addDirs,
    projectRoot: loaded.projectRoot,
    home,
    systemPrompt: opts.systemPrompt,
    appendSystemPrompt: opts.appendSystemPrompt,
    idleTimeoutMs: c.streamIdleTimeoutMs,
    bashTimeoutMs: c.bashTimeoutMs,
    ...(Object.keys(loaded.toolLimits.runs).length === 0 ? {} : { toolRuns: loaded.toolLimits.runs }),
    processSandbox: processSandboxFrom(loaded, { allow, deny }, home, process.env),
    ...(opts.jsonSchema === undefined ? {} : { outputSchema: jsonSchemaFlag(opts.jsonSchema, '--json-schema') }),
    // Test hook: the real backoff base is 1 s; end-to-end failure tests shorten it.
    retryBaseMs: Number.isFinite(retryBase) && retryBase > 0 ? retryBase : 1000,
  };
}


/** `--json-schema` (or an SDK's initialize.jsonSchema): a JSON Schema object zod can check answers against. */
export function jsonSchemaFlag(value: string | Record<string, unknown>, where: string): Record<string, unknown> {
  let schema: unknown = value;
  if (typeof value === 'string') {
    try {
      schema = JSON.parse(value);
    } catch (e) {
      throw new MoatError('usage', `${where}: not JSON: ${errorMessage(e)}`);
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new MoatError('usage', `${where}: a JSON Schema is an object`);
  const record = schema as Record<string, unknown>;
  outputValidator(record);
  return record;
}
