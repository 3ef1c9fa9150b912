/**
 * `moat models`: every provider moat knows (built-in and configured), whether
 * it is reachable, and its models with context window, output cap and
 * prices, from the provider's own list where it has one and the catalogue.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { listModels, type ModelInfo, type ModelListing, type ModelRouter } from '../providers/index.ts';
import { EXIT } from './exit-codes.ts';
import { modelRouter } from './model-setup.ts';
import { out } from './write-out.ts';

/** Long enough for a server on this machine or nearby; short enough not to hang on one that is not there. */
const LIST_TIMEOUT_MS = 2500;

export const modelsCommands = {
  async modelsList(opts: { cwd?: string; provider?: string }): Promise<number> {
    const loaded = loadConfig({ cwd: resolve(opts.cwd ?? process.cwd()), env: process.env });
    const router = modelRouter(loaded, process.env);
    const names = opts.provider === undefined ? Object.keys(router.providers) : [router.resolve(`${opts.provider}/x`).provider];
    const listings = await Promise.all(names.map((name) => listModels(router, name, LIST_TIMEOUT_MS)));
    out(formatModels(router, listings, loaded.config.model));
    return EXIT.ok;
  },
};

export function formatModels(router: ModelRouter, listings: readonly ModelListing[], current: string): string {
  const lines: string[] = [];
  const currentRef = router.resolve(current);
  for (const listing of listings) {
    const config = router.providers[listing.provider];
    const where = config?.baseUrl ?? `${config?.type ?? ''} (cloud credentials)`;
    const status =
      listing.status === 'listed' ? `${listing.models.length} models listed` : listing.status === 'skipped' ? listing.reason : `not reachable: ${listing.reason}`;
    lines.push(`${listing.provider}  ${config?.type ?? ''}  ${where}  — ${status}`);
    const catalogued = router.catalog.list().filter((m) => m.provider === listing.provider);
    const ids = new Set([...catalogued.map((m) => m.id), ...(listing.status === 'listed' ? listing.models : [])]);
    const rows = [...ids].sort().map((id) => row(router.catalog.info(listing.provider, id), currentRef.provider === listing.provider && currentRef.model === id));
    lines.push(...table(rows).map((l) => `  ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

function row(m: ModelInfo, current: boolean): string[] {
  if (!m.known) return [`${current ? '* ' : '  '}${m.provider}/${m.id}`, '', '', 'not in the catalogue (set its limits and prices in [providers.' + m.provider + '.models])', ''];
  const caps = [m.capabilities.tools ? 'tools' : '', m.capabilities.images ? 'images' : '', m.capabilities.reasoning ? 'reasoning' : ''].filter((c) => c !== '').join(',');
  const price = `$${fmt(m.price.input)}/$${fmt(m.price.output)} per Mtok (cache $${fmt(m.price.cacheRead)} read, $${fmt(m.price.cacheWrite)} write)`;
  return [`${current ? '* ' : '  '}${m.provider}/${m.id}`, `${kTokens(m.contextWindow)} ctx`, `${kTokens(m.maxOutput)} out`, price, caps];
}

function table(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i] ?? 0) : c)).join('  ').trimEnd());
}

/** 32768 → 32k and 200000 → 200k, as vendors write them. */
function kTokens(n: number): string {
  if (n >= 1_000_000) return `${Math.round(n / 100_000) / 10}M`;
  return `${n % 1000 !== 0 && n % 1024 === 0 ? n / 1024 : Math.round(n / 1000)}k`;
}

function fmt(n: number): string {
  return Number(n.toFixed(4)).toString();
}
