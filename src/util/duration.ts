/** Durations as people write them in flags and config: `500ms`, `30s`, `10m`, `1h30m`, `2d`. */

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds, or undefined when `text` is not a duration (a bare number is not: the unit would be a guess). */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) total += Number(m[1]) * (UNITS[m[2] ?? ''] ?? Number.NaN);
  return Number.isFinite(total) && total > 0 ? Math.round(total) : undefined;
}
