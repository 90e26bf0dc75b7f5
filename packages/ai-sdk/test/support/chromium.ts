import { CHROMIUM, hasChromium } from '../../../studio/test/support/browser.js';

// The same chromium, launched the same way, as the studio's browser tests.
export { launchChromium } from '../../../studio/test/support/browser.js';

/** Under CI=true a missing chromium fails the suite; elsewhere it is skipped with a warning. */
export function chromiumOrSkip(): boolean {
  if (hasChromium()) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but there is no chromium at ${CHROMIUM} (apt-get install chromium).`);
  console.warn(`\n*** ai-sdk browser tests SKIPPED: no chromium at ${CHROMIUM} (apt-get install chromium, or set REPLAN_CHROMIUM).\n`);
  return false;
}
