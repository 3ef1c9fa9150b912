/**
 * The entry point of dist/moat-test, a build of moat for the end-to-end tests
 * only: it reads test switches from the environment and hands them to the
 * composition root, then starts moat as src/main.ts does. dist/moat is built
 * from src/main.ts and has no such switches (test/e2e/no-test-switches.test.ts
 * greps it).
 */
import { setCompositionOptions } from '../../src/cli/composition.ts';

setCompositionOptions({
  allowPrivateNetwork: process.env.MOAT_TEST_ALLOW_PRIVATE_NETWORK === '1',
  injectCrash: process.env.MOAT_TEST_CRASH === '1',
  ...retryBase(process.env.MOAT_TEST_RETRY_BASE_MS),
});

function retryBase(text: string | undefined): { retryBaseMs?: number } {
  const ms = Number(text);
  return Number.isFinite(ms) && ms > 0 ? { retryBaseMs: ms } : {};
}
await import('../../src/main.ts');
