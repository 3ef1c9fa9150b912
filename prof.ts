import { sandboxSupport } from '/work/main/src/sandbox/os/support.ts';
let t = performance.now();
sandboxSupport(process.env); console.log('probe', (performance.now()-t).toFixed(1));
t = performance.now();
await import('@anthropic-ai/sandbox-runtime/dist/sandbox/linux-sandbox-utils.js'); console.log('linux utils import', (performance.now()-t).toFixed(1));
t = performance.now();
await import('/work/main/src/sandbox/os/write-monitor.ts'); console.log('write-monitor import', (performance.now()-t).toFixed(1));
const { applySeccompPath } = await import('/work/main/src/sandbox/os/seccomp-helper.ts');
t = performance.now(); applySeccompPath(); console.log('seccomp', (performance.now()-t).toFixed(1));
const { prepareCommand } = await import('/work/main/src/sandbox/os/prepare-command.ts');
for (let i=0;i<3;i++){ t = performance.now(); await prepareCommand(['true'], { cwd: '/tmp', env: process.env, grants: { allowWrite: ['/tmp'], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [] }, mode: 'auto' }); console.log('prepare', (performance.now()-t).toFixed(1)); }
