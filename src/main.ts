import './env-guard.ts';
import pkg from '../package.json' with { type: 'json' };

// The fast path: `--version` must not pay for parsing the rest of the program.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${pkg.version} (moat)\n`);
  process.exit(0);
}

const { main } = await import('./cli/index.ts');
process.exit(await main(argv));
