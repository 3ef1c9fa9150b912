/** The systemd user unit `moat cron install-service` writes. */
import { describe, expect, test } from 'bun:test';
import { serviceUnit } from '../../src/cron/index.ts';

describe('serviceUnit', () => {
  test('runs moat cron serve with the environment that finds moat and its data; quotes what systemd would split', () => {
    const unit = serviceUnit(['/opt/my tools/moat'], { PATH: '/usr/bin:/bin', HOME: '/home/ana', XDG_DATA_HOME: '/data/x', SECRET_TOKEN: 'nope' });
    expect(unit).toContain('ExecStart="/opt/my tools/moat" cron serve\n');
    expect(unit).toContain('Environment=PATH=/usr/bin:/bin\nEnvironment=HOME=/home/ana\nEnvironment=XDG_DATA_HOME=/data/x\n');
    expect(unit).not.toContain('SECRET_TOKEN');
    expect(unit).toContain('EnvironmentFile=-%h/.config/moat/cron.env');
    expect(unit).toContain('[Install]\nWantedBy=default.target');
  });
});
