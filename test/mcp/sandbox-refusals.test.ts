import { describe, expect, test } from 'bun:test';
import { DEFAULT_SERVER_SANDBOX, serverPolicy } from '../../src/mcp/index.ts';
import { howToAllow, refusalLine } from '../../src/mcp/sandbox-refusals.ts';
import { tempDir } from '../support/temp.ts';
import { stdioServer } from './support.ts';

const CONFIG = '~/.config/moat/config.toml';

describe('what the sandbox refused a server, and the line that allows it', () => {
  test('a write: the folder it is in (or the folder itself), the grants it has kept; a name TOML must quote is quoted', () => {
    const dir = tempDir('refusal-');
    const fs = stdioServer('fs', 'node', [], { sandbox: { enabled: true, allowWrite: ['/data'], networkAllow: [] } });
    expect(howToAllow(fs, { kind: 'write', target: `${dir}/new/file.txt`, message: '' }, CONFIG)).toBe(`to allow it, in ${CONFIG}: [mcp_servers.fs.sandbox] allow_write = ["/data", "${dir}/new"] (moat mcp add … --allow-write ${dir}/new)`);
    expect(howToAllow(fs, { kind: 'write', target: dir, message: '' }, CONFIG)).toContain(`allow_write = ["/data", "${dir}"]`);
    const dotted = stdioServer('my.server', 'node', []);
    expect(howToAllow(dotted, { kind: 'write', target: '/x/y', message: '' }, CONFIG)).toContain('[mcp_servers."my.server".sandbox] allow_write = ["/x"]');
  });

  test('a connection: the host alone for the web ports, with its port otherwise; loopback needs allow_loopback; a deny rule or a limit has no grant', () => {
    const web = stdioServer('web', 'node', [], { sandbox: { enabled: true, allowWrite: [], networkAllow: ['api.example.com'] } });
    const refused = (target: string, message = `connection to ${target} refused: not in [sandbox.network] allow`) => howToAllow(web, { kind: 'network', target, message }, CONFIG);
    expect(refused('registry.npmjs.org:443')).toBe(`to allow it, in ${CONFIG}: [mcp_servers.web.sandbox] network_allow = ["api.example.com", "registry.npmjs.org"] (moat mcp add … --allow-network registry.npmjs.org)`);
    expect(refused('example.org:8080')).toContain('network_allow = ["api.example.com", "example.org:8080"]');
    expect(refused('127.0.0.1:4873')).toContain('network_allow = ["api.example.com", "127.0.0.1:4873"], allow_loopback = true (moat mcp add … --allow-network 127.0.0.1:4873 --allow-loopback)');
    expect(refused('api.example.com:443', 'connection to api.example.com:443 refused: it is a loopback address')).toContain('network_allow = ["api.example.com"], allow_loopback = true');
    expect(refused('evil.example:443', 'connection to evil.example:443 refused: denied by [sandbox.network] deny')).toBe('');
    expect(howToAllow(web, { kind: 'limit', target: 'pids', message: 'pids limit reached' }, CONFIG)).toBe('');
    // The proxy speaks of the user's list; for a server the list is its own.
    expect(refusalLine(web, { kind: 'network', target: 'x.example:443', message: 'connection to x.example:443 refused: not in [sandbox.network] allow' }, CONFIG)).toStartWith('connection to x.example:443 refused (not in its network_allow); to allow it');
  });

  test('package runners meet the proxy with no host granted (their refused registry is named); other servers get no network at all', () => {
    for (const command of ['npx', '/usr/local/bin/npx', 'uvx', 'bunx']) {
      const policy = serverPolicy(stdioServer('p', command, ['-y', 'pkg']), DEFAULT_SERVER_SANDBOX);
      expect({ command, observe: policy.observeNetwork, allow: policy.allowNetwork }).toEqual({ command, observe: true, allow: [] });
    }
    expect(serverPolicy(stdioServer('n', 'node', ['server.js']), DEFAULT_SERVER_SANDBOX).observeNetwork).toBeUndefined();
  });
});
