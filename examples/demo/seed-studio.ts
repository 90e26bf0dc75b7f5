/**
 * Before `pnpm studio`: when the demo's session directory holds no session yet, runs the demo's
 * question once and the approval app up to its approval question (offline, scripted), so the
 * studio opens on something to look at and something to answer.
 */
import { APPROVAL_APP, approvalRunner } from './approval-app.js';
import { DEMO_SESSIONS_DIR, demoStore } from './demo-store.js';
import { DEMO_APP, demoRunner } from './runners.js';

const QUESTION =
  'How much would our support team pay per year on the Team plan, counting the people who join in March? Use our documents and check for billing discounts.';

async function main(): Promise<void> {
  const store = demoStore();
  const has = async (appName: string) => (await store.list({ appName, userId: 'demo', limit: 1 })).sessions.length > 0;
  if (!(await has(DEMO_APP))) {
    const result = await demoRunner(store).run({ userId: 'demo', input: QUESTION }).result();
    console.log(`demo run: ${result.status} (session ${result.sessionId})`);
  }
  if (!(await has(APPROVAL_APP))) {
    const result = await approvalRunner(store).run({ userId: 'demo', input: 'Send the yearly cost report to finance.' }).result();
    console.log(`approval run: ${result.status}, waiting for you in the studio (session ${result.sessionId})`);
  }
  console.log(`sessions in ${DEMO_SESSIONS_DIR}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
