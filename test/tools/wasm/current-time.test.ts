import { beforeAll, describe, expect, test } from 'bun:test';
import { buildNative, fails, ok } from './native.ts';

beforeAll(buildNative, 120_000);

const TZ = { env: { TZDIR: '/usr/share/zoneinfo' } };
const at = async (zone: string, when: string, format = 'iso8601'): Promise<string> =>
  (await ok('current_time', ['-z', zone, `--at=${when}`, '-f', format], TZ)).content;

describe('current_time', () => {
  test('now, from the clock', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await ok('current_time', ['-f', 'unix'], TZ);
    const after = Math.ceil(Date.now() / 1000);
    expect(Number(r.content)).toBeGreaterThanOrEqual(before);
    expect(Number(r.content)).toBeLessThanOrEqual(after);
    expect(r.metadata).toMatchObject({ timezone: 'UTC', abbreviation: 'UTC', utc_offset: '+00:00', is_dst: false });
  });

  test('daylight saving time transitions (TZif transitions)', async () => {
    // US spring forward 2024-03-10 07:00 UTC.
    expect(await at('America/New_York', '2024-03-10T06:59:59Z')).toBe('2024-03-10T01:59:59-05:00');
    expect(await at('America/New_York', '2024-03-10T07:00:00Z')).toBe('2024-03-10T03:00:00-04:00');
    // EU fall back 2024-10-27 01:00 UTC.
    expect(await at('Europe/Berlin', '2024-10-27T00:59:59Z')).toBe('2024-10-27T02:59:59+02:00');
    expect(await at('Europe/Berlin', '2024-10-27T01:00:00Z')).toBe('2024-10-27T02:00:00+01:00');
    // Southern hemisphere: Sydney is on daylight time in January.
    expect(await at('Australia/Sydney', '2024-01-15T00:00:00Z', '%H:%M %Z')).toBe('11:00 AEDT');
    expect(await at('Australia/Sydney', '2024-07-15T00:00:00Z', '%H:%M %Z')).toBe('10:00 AEST');
  });

  test('far future uses the POSIX TZ footer rule', async () => {
    expect(await at('Europe/Berlin', '2100-07-01T12:00:00Z', '%F %T %Z')).toBe('2100-07-01 14:00:00 CEST');
    expect(await at('America/New_York', '2100-12-01T12:00:00Z', '%F %T %Z')).toBe('2100-12-01 07:00:00 EST');
    expect(await at('Australia/Sydney', '2100-01-01T00:00:00Z', '%H %Z')).toBe('11 AEDT');
  });

  test('odd offsets and history', async () => {
    expect(await at('Asia/Kathmandu', '2024-01-01T00:00:00Z')).toBe('2024-01-01T05:45:00+05:45');
    expect(await at('America/St_Johns', '2024-01-01T00:00:00Z')).toBe('2023-12-31T20:30:00-03:30');
    expect(await at('Pacific/Chatham', '2024-01-01T00:00:00Z', '%H:%M %z')).toBe('13:45 +1345');
    // Local mean time before standard time; the offset has seconds (GNU date truncates %z the same way)…
    expect(await at('Europe/Amsterdam', '1900-01-01T00:00:00Z', '%H:%M:%S %z %Z')).toBe('00:19:32 +0019 AMT');
    // …but ISO 8601 keeps them, so the printed time is the true instant, and RFC 3339 (no seconds in offsets) says it in UTC.
    expect(await at('Europe/Amsterdam', '1900-01-01T00:00:00Z')).toBe('1900-01-01T00:19:32+00:19:32');
    expect(await at('Europe/Amsterdam', '1900-01-01T00:00:00Z', 'rfc3339')).toBe('1900-01-01T00:00:00.000Z');
    expect(await at('Etc/GMT+5', '2024-01-01T00:00:00Z', '%H %Z')).toBe('19 -05');
  });

  test('formats', async () => {
    const t = '2024-03-10T07:00:00.25Z';
    expect(await at('America/New_York', t, 'rfc3339')).toBe('2024-03-10T03:00:00.250-04:00');
    expect(await at('UTC', t, 'rfc3339')).toBe('2024-03-10T07:00:00.250Z');
    expect(await at('America/New_York', t, 'rfc2822')).toBe('Sun, 10 Mar 2024 03:00:00 -0400');
    expect(await at('UTC', t, 'unix')).toBe('1710054000');
    expect(await at('UTC', t, '%A %-d %B %Y, %I:%M %p (day %j, week %V, %G) %L %f %N %%')).toBe(
      'Sunday 10 March 2024, 07:00 AM (day 070, week 10, 2024) 250 250000 250000000 %',
    );
    expect(await at('UTC', '2021-01-03T00:00:00Z', '%G-W%V-%u %U %W')).toBe('2020-W53-7 01 00');
    expect(await at('UTC', '2024-12-30T00:00:00Z', '%G-W%V-%u')).toBe('2025-W01-1');
  });

  test('--at accepts Unix seconds, offsets and bare dates', async () => {
    expect(await at('UTC', '0')).toBe('1970-01-01T00:00:00+00:00');
    expect(await at('UTC', '-1.25', '%F %T.%L')).toBe('1969-12-31 23:59:58.750');
    expect(await at('UTC', '2024-02-29')).toBe('2024-02-29T00:00:00+00:00');
    expect(await at('Asia/Tokyo', '2024-01-01T09:00:00+09:00')).toBe('2024-01-01T09:00:00+09:00');
    expect(await at('UTC', '2024-01-01 09:00:00-05:30')).toBe('2024-01-01T14:30:00+00:00');
  });

  test('metadata', async () => {
    const r = await ok('current_time', ['-z', 'Europe/Berlin', '--at', '2024-07-01T00:00:00Z'], TZ);
    expect(r).toEqual({
      error: false,
      content: '2024-07-01T02:00:00+02:00',
      metadata: {
        timezone: 'Europe/Berlin',
        abbreviation: 'CEST',
        utc_offset: '+02:00',
        utc_offset_seconds: 7200,
        is_dst: true,
        unix: 1719792000,
        iso8601: '2024-07-01T02:00:00+02:00',
      },
    });
  });

  test('zone names are case-sensitive, as in the IANA database; a near miss names the zone', async () => {
    expect(await fails('current_time', ['-z', 'Europe/berlin'], TZ)).toBe("error: unknown time zone 'Europe/berlin' (names are case-sensitive): did you mean Europe/Berlin?");
    expect(await fails('current_time', ['-z', 'america/new_york'], TZ)).toBe("error: unknown time zone 'america/new_york' (names are case-sensitive): did you mean America/New_York?");
  });

  test("agrees with Python's zoneinfo on every zone's ISO 8601 time at instants across history and DST changes", async () => {
    const zones = ['Europe/Amsterdam', 'Asia/Kolkata', 'Africa/Monrovia', 'America/St_Johns', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kathmandu', 'America/Sao_Paulo', 'Europe/Dublin', 'Pacific/Apia', 'America/New_York', 'Europe/Moscow', 'Asia/Tehran', 'Africa/Casablanca', 'Antarctica/Troll'];
    const instants = [-2_500_000_000, -2_208_988_800, -1_000_000_000, 0, 1_000_000_000, 1_711_846_800, 1_730_000_000, 2_000_000_000, 4_102_444_800];
    const script = `import json,sys\nfrom datetime import datetime, timezone\nfrom zoneinfo import ZoneInfo\nprint(json.dumps({f"{z} {t}": datetime.fromtimestamp(t, timezone.utc).astimezone(ZoneInfo(z)).isoformat() for z in ${JSON.stringify(zones)} for t in ${JSON.stringify(instants)}}))`;
    const py = Bun.spawnSync(['python3', '-c', script], { env: { ...process.env, TZDIR: '/usr/share/zoneinfo' } });
    expect(py.exitCode).toBe(0);
    const want = JSON.parse(py.stdout.toString()) as Record<string, string>;
    const got: Record<string, string> = {};
    for (const z of zones) for (const t of instants) got[`${z} ${t}`] = await at(z, String(t));
    expect(got).toEqual(want);
  }, 60_000);

  test.each([
    [['-z', '../../etc/passwd'], "error: invalid time zone name '../../etc/passwd': use an IANA name such as Europe/Berlin or UTC"],
    [['-z', '/etc/passwd'], "error: invalid time zone name '/etc/passwd': use an IANA name such as Europe/Berlin or UTC"],
    [['-z', 'Mars/Olympus'], "error: unknown time zone 'Mars/Olympus': use an IANA name such as America/New_York, Europe/Berlin or UTC"],
    [['-f', 'human'], "error: unknown format 'human': use iso8601, rfc3339, rfc2822, unix or a strftime pattern such as %Y-%m-%d %H:%M"],
    [['-f', '%Y %Q'], "error: unsupported strftime directive '%Q'"],
    [['-f', '100%'], "error: the format ends with a lone '%'"],
    [['--at', '2024-02-30'], "error: invalid --at value '2024-02-30': give Unix seconds or an RFC 3339 time with an offset, e.g. 2024-03-10T02:30:00Z"],
    [['--at', '2024-01-01T10:00'], "error: the --at time '2024-01-01T10:00' has no offset: add Z for UTC or +hh:mm"],
    [['--at', '2024-01-01T10:00+0é:00'], "error: invalid --at value '2024-01-01T10:00+0é:00': give Unix seconds or an RFC 3339 time with an offset, e.g. 2024-03-10T02:30:00Z"],
  ])('%p is a clear error', async (args, message) => {
    expect(await fails('current_time', args, TZ)).toBe(message);
  });

  test('without the zone database only UTC works', async () => {
    const env = { env: { TZDIR: '/nonexistent-zoneinfo' } };
    expect((await ok('current_time', ['--at', '0'], env)).content).toBe('1970-01-01T00:00:00+00:00');
    expect(await fails('current_time', ['-z', 'Europe/Berlin'], env)).toBe(
      'error: the time zone database is not available (no /nonexistent-zoneinfo), so only UTC works',
    );
  });

  test('agrees with GNU date across zones and eras', async () => {
    const zones = ['Europe/Berlin', 'America/Sao_Paulo', 'Africa/Casablanca', 'Asia/Gaza', 'Pacific/Apia', 'America/Santiago', 'Europe/Dublin'];
    const times = [-1e9, 0, 1e9, 1.3e9, 1.7e9, 2147483648, 2.5e9, 4.1e9];
    const fmt = '%Y-%m-%d %H:%M:%S %z %Z %j %a';
    for (const zone of zones) {
      for (const t of times) {
        const mine = await at(zone, String(t), fmt);
        const gnu = Bun.spawnSync(['date', '-d', `@${t}`, `+${fmt}`], { env: { TZ: zone } }).stdout.toString().trim();
        expect(`${zone} ${t}: ${mine}`).toBe(`${zone} ${t}: ${gnu}`);
      }
    }
  });
});
