import { wrapCommandWithSandboxLinux, cleanupBwrapMountPoints } from '@anthropic-ai/sandbox-runtime/dist/sandbox/linux-sandbox-utils.js';
const H = process.env.HOME!;
async function run(argv: string[]) { const t=performance.now(); const p = Bun.spawn(argv, {stdout:'inherit', stderr:'inherit'}); await p.exited; return performance.now()-t; }
const med = (a: number[]) => a.sort((x,y)=>x-y)[a.length>>1];
for (const depth of [3, 0]) for (const seccomp of [true, false]) {
  const wraps: number[] = [], runs: number[] = [];
  let cmd = '';
  for (let i=0;i<15;i++){
    const t=performance.now();
    cmd = await wrapCommandWithSandboxLinux({ command: 'true', needsNetworkRestriction: true, readConfig: { denyOnly: [H+'/.ssh'] }, writeConfig: { allowOnly: [process.cwd(), '/tmp'], denyWithinAllow: [] }, allowAllUnixSockets: !seccomp, mandatoryDenySearchDepth: depth, binShell: 'bash' } as any);
    wraps.push(performance.now()-t);
    runs.push(await run(['bash','-c',cmd]));
    cleanupBwrapMountPoints();
  }
  const plain: number[] = []; for (let i=0;i<15;i++) plain.push(await run(['bash','-c','true']));
  console.log({depth, seccomp, wrap: med(wraps), run: med(runs), plain: med(plain)});
  if (depth===0 && seccomp) console.log(cmd);
}
