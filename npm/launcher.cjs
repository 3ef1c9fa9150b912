#!/usr/bin/env node
// The `moat` command of the npm launcher package: runs the executable from this platform's package (one of the
// launcher's optionalDependencies, which npm installs only where its os/cpu match). No install script, no download.
'use strict';
const { spawn } = require('node:child_process');
const { dirname, join } = require('node:path');
const launcher = require('../package.json');

const platform = `${process.platform}-${process.arch}`;
const wanted = `${launcher.name}-${platform}`;
const shipped = Object.keys(launcher.optionalDependencies || {}).map((name) => name.slice(launcher.name.length + 1));

function fail(message) {
  process.stderr.write(`moat: ${message}\n`);
  process.exit(1);
}

if (!shipped.includes(platform)) fail(`no build for this platform (${platform}); moat is built for ${shipped.join(', ')}`);
let packageJson;
try {
  packageJson = require.resolve(`${wanted}/package.json`);
} catch {
  fail(`the package for this platform (${wanted}) is not installed; reinstall without omitting optional dependencies: npm install -g ${launcher.name}`);
}
const executable = join(dirname(packageJson), 'bin', process.platform === 'win32' ? 'moat.exe' : 'moat');
const child = spawn(executable, process.argv.slice(2), { stdio: 'inherit' });
child.on('error', (e) => fail(`could not start ${executable}: ${e.message}`));
// Ctrl-C reaches the executable from the terminal itself (the same process group): the launcher only waits for it.
// A signal sent to the launcher alone is passed on.
const forwarded = process.platform === 'win32' ? [] : ['SIGTERM', 'SIGHUP', 'SIGQUIT'];
process.on('SIGINT', () => {});
for (const s of forwarded) process.on(s, () => child.kill(s));
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so a shell sees what the executable saw.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
