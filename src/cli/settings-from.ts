/** The session settings of a run, from the loaded config and the command-line flags. */
import { join } from 'node:path';
import { loadOutputValidator, type AgentSettings, type OutputSchema, type ReloadableSettings } from '../agent/index.ts';
import { describeSource, folderTrusted, moatPaths, type LoadedConfig } from '../config/index.ts';
import { parseRuleList, splitRuleList, type Rule } from '../tools/index.ts';
import { errorMessage, MoatError, homeOf } from '../util/index.ts';
import { processSandboxFrom } from './os-sandbox-setup.ts';
import type { RootOptions } from './program.ts';
import { settingSources } from './settings-flag.ts';

function rules(values: string[], what: string) {
  try {
    return parseRuleList(values);
  } catch (e) {
    throw new MoatError('usage', `${what}: ${errorMessage(e)}`);
  }
}

/** The rules of one list, each carrying where it was written, so a denial can name the file and line (or flag). */
function rulesWithSources(loaded: LoadedConfig, list: 'allow' | 'deny' | 'ask'): Rule[] {
  const parsed = rules(loaded.config.permissions[list], `${list} rules`);
  const where = new Map<string, string>();
  for (const r of loaded.rules) {
    if (r.list !== list) continue;
    const source = describeSource(r.source, loaded.projectRoot, process.env);
    if (source === undefined) continue;
    for (const text of splitRuleList([r.rule])) if (!where.has(text.trim())) where.set(text.trim(), source);
  }
  return parsed.map((rule) => {
    const source = where.get(rule.text);
    return source === undefined ? rule : { ...rule, source };
  });
}

/** What the configuration grants: rules, extra folders and the OS sandbox policy built from them (also read again on trust). */
export function grantsFrom(loaded: LoadedConfig, home: string): ReloadableSettings {
  const c = loaded.config;
  const allow = rulesWithSources(loaded, 'allow');
  const deny = rulesWithSources(loaded, 'deny');
  const ask = rulesWithSources(loaded, 'ask');
  const processSandbox = processSandboxFrom(loaded, { allow, deny }, home, process.env);
  // Before trust, git's status is not read (git would run what the repository's configuration names) and the project's commands grant nothing.
  const trusted = folderTrusted(loaded.projectRoot, moatPaths(process.env).configDir);
  return { allow, deny, ...(ask.length === 0 ? {} : { ask }), addDirs: c.addDirs, processSandbox, ...(trusted ? { trustedFolder: true } : {}) };
}

export function settingsFrom(loaded: LoadedConfig, opts: RootOptions, cwd: string): AgentSettings {
  const c = loaded.config;
  const home = homeOf();
  const { allow, deny, ask, addDirs, processSandbox, trustedFolder } = grantsFrom(loaded, home);
  const retryBase = Number(process.env.MOAT_RETRY_BASE_MS);
  return {
    model: c.model,
    ...(c.fallback.length > 0 ? { fallbackModels: c.fallback } : {}),
    maxTurns: c.maxTurns,
    maxBudgetUsd: c.maxBudgetUsd,
    maxTokens: c.maxTokens,
    // --thinking disabled (the SDK's thinking: {type: 'disabled'}) turns off a budget the config or a flag set.
    ...(c.thinkingBudget === undefined || opts.thinking === 'disabled' ? {} : { thinkingBudget: c.thinkingBudget }),
    permissionMode: c.permissionMode,
    allow,
    deny,
    ...(ask === undefined ? {} : { ask }),
    cwd,
    addDirs,
    projectRoot: loaded.projectRoot,
    home,
    systemPrompt: opts.systemPrompt,
    // --setting-sources: the instruction files, skills, commands and agents of these sources only (settings files are filtered in config).
    ...(opts.settingSources === undefined ? {} : { settingSources: settingSources(opts.settingSources) }),
    appendSystemPrompt: opts.appendSystemPrompt,
    idleTimeoutMs: c.streamIdleTimeoutMs,
    bashTimeoutMs: c.bashTimeoutMs,
    ...(Object.keys(loaded.toolLimits.runs).length === 0 ? {} : { toolRuns: loaded.toolLimits.runs }),
    ...(processSandbox === undefined ? {} : { processSandbox }),
    ...(trustedFolder === true ? { trustedFolder } : {}),
    // Claude Code's transcript for hooks: beside the database, or in the cache when the session is not to be kept.
    transcriptDir: join(opts.sessionPersistence === false ? moatPaths(process.env).cacheDir : moatPaths(process.env).dataDir, 'transcripts'),
    // Test hook: the real backoff base is 1 s; end-to-end failure tests shorten it.
    retryBaseMs: Number.isFinite(retryBase) && retryBase > 0 ? retryBase : 1000,
  };
}


/** `--json-schema` (or an SDK's initialize.jsonSchema): a JSON Schema object, with the validator that checks answers against it (output-validator.ts). */
export async function outputSchemaFlag(value: string | Record<string, unknown>, where: string): Promise<OutputSchema> {
  let schema: unknown = value;
  if (typeof value === 'string') {
    try {
      schema = JSON.parse(value);
    } catch (e) {
      throw new MoatError('usage', `${where}: not JSON: ${errorMessage(e)}`);
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new MoatError('usage', `${where}: a JSON Schema is an object`);
  const { outputSchemaOf } = await loadOutputValidator();
  return outputSchemaOf(schema as Record<string, unknown>, where);
}
