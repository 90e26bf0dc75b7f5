import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium; REPLAN_CHROMIUM overrides. */
export const CHROMIUM = process.env.REPLAN_CHROMIUM ?? '/usr/bin/chromium';

/** Under CI=true a missing chromium fails the suite; elsewhere it is skipped with a warning. */
export function chromiumOrSkip(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but there is no chromium at ${CHROMIUM} (apt-get install chromium).`);
  console.warn(`\n*** ai-sdk browser tests SKIPPED: no chromium at ${CHROMIUM} (apt-get install chromium, or set REPLAN_CHROMIUM).\n`);
  return false;
}

/** The system chromium, headless, with nothing that reaches the network by itself. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
