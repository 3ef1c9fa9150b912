// Whether any place MCP servers are configured exists, checked without parsing: most runs have none and skip the server loader.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { claudeRecord, claudeSettingsPaths, homeOf } from '../config/index.ts';
import type { ServerSources } from './load-servers.ts';

/** Whether something is at the path; one that cannot be looked at counts (the loader says why). */
function present(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/**
 * False only when loadServers would find nothing at all: no server, no
 * problem line, no approval. Claude Code's settings file and `.mcp.json`
 * count whenever they exist: any of their keys (servers, approvals) or a
 * broken file matters, and checking that takes their parser. `~/.claude.json`
 * (megabytes of history) is asked through its one reader, which parses it
 * only when it names a server or this folder. `MCP_TIMEOUT` and the other variables
 * with MCP in their name may be problem lines.
 */
export function mayDefineServers(o: ServerSources): boolean {
  if ((o.mcpConfigs ?? []).length > 0) return true;
  if (Object.keys(o.env).some((name) => name.includes('MCP'))) return true;
  if (o.strict === true) return false;
  const home = homeOf(o.env);
  const hasProject = o.projectConfigFile !== o.userConfigFile;
  const claudeFiles = [claudeSettingsPaths(home, o.projectRoot).user, ...(hasProject ? [join(o.projectRoot, '.mcp.json')] : [])];
  if (claudeFiles.some(present)) return true;
  // ~/.claude.json exists for every Claude Code user: it counts when it has servers, names this folder or is broken there.
  const record = claudeRecord(home, o.projectRoot);
  if (record.error !== undefined || record.project(o.projectRoot) !== undefined) return true;
  const servers = record.mcpServers;
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Object.keys(servers).length > 0)) return true;
  // The config files as the config loader parsed them: a table there is what counts, not a word in the text.
  return [o.parsedFiles.user, ...(hasProject ? [o.parsedFiles.project] : [])].some((f) => f !== undefined && (f.data.mcp_servers !== undefined || f.data.mcp !== undefined));
}
