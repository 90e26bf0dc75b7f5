import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium } from './browser.js';

/**
 * A describe block that runs in the system chromium. Under CI=true a missing chromium fails the
 * suite; elsewhere the suite is skipped with a loud warning.
 */
export function describeInBrowser(name: string, body: (browser: () => Browser) => void): void {
  const available = hasChromium();
  if (!available && process.env.CI !== 'true') {
    console.warn(
      `\n\n*** Studio browser tests SKIPPED: no chromium at ${CHROMIUM} (apt-get install chromium, or set REPLAN_CHROMIUM).\n*** They run (and must pass) when CI=true.\n`,
    );
    describe.skip(name, () => body(() => undefined as never));
    return;
  }
  describe(name, () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      if (!available) throw new Error(`CI=true but there is no chromium at ${CHROMIUM}: .ci/run installs it (apt-get install chromium).`);
      // The page's script is the compiled web/ project; `pnpm test` builds it before vitest runs.
      if (!existsSync(fileURLToPath(new URL('../../dist/web/main.js', import.meta.url))))
        throw new Error('packages/studio/dist/web/main.js is missing: run `pnpm build` (tsc -b) before the studio tests.');
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });
    body(() => {
      if (!browser) throw new Error('chromium did not start');
      return browser;
    });
  });
}
