/** `moat cron install-service`: a systemd user unit that runs `moat cron serve`, and how to enable it. */

export const SERVICE_NAME = 'moat-cron.service';

/** Quoted for systemd's ExecStart (which splits on spaces and honours double quotes). */
function quote(arg: string): string {
  return /[\s"\\]/.test(arg) ? `"${arg.replace(/(["\\])/g, '\\$1')}"` : arg;
}

export function serviceUnit(command: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  const keep = ['PATH', 'HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME'].filter((k) => env[k] !== undefined);
  return [
    '[Unit]',
    'Description=moat scheduled jobs (moat cron serve)',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${[...command, 'cron', 'serve'].map(quote).join(' ')}`,
    ...keep.map((k) => `Environment=${quote(`${k}=${env[k]}`)}`),
    '# Provider keys: put them in ~/.config/moat/cron.env (mode 0600), one NAME=value per line.',
    'EnvironmentFile=-%h/.config/moat/cron.env',
    'Restart=on-failure',
    'RestartSec=10',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
