import type { ChatModel, SessionStore } from '@replan/core';
import { APPROVAL_APP, approvalRunner } from './approval-app.js';
import { DEMO_APP, demoRunner } from './runners.js';

export const DEMO_QUESTION =
  'How much would our support team pay per year on the Team plan, counting the people who join in March? Use our documents and check for billing discounts.';

/**
 * What `pnpm studio` opens on: when `store` holds none yet, the demo question run once, and the
 * approval app run up to its approval question (user `demo`). `model` answers the demo question
 * (default: the real model of the environment, else the scripted one).
 */
export async function seedDemo(store: SessionStore, log: (line: string) => void = () => undefined, model?: ChatModel): Promise<void> {
  const has = async (appName: string) => (await store.list({ appName, userId: 'demo', limit: 1 })).sessions.length > 0;
  if (!(await has(DEMO_APP))) {
    const result = await demoRunner(store, model).run({ userId: 'demo', input: DEMO_QUESTION }).result();
    log(`demo run: ${result.status} (session ${result.sessionId})`);
  }
  if (!(await has(APPROVAL_APP))) {
    const result = await approvalRunner(store).run({ userId: 'demo', input: 'Send the yearly cost report to finance.' }).result();
    log(`approval run: ${result.status}, waiting for you in the studio (session ${result.sessionId})`);
  }
}
