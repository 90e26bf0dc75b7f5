/**
 * Before `pnpm studio`: when the demo's session directory holds no session yet, runs the demo's
 * question once and the approval app up to its approval question (offline, scripted), so the
 * studio opens on something to look at and something to answer.
 */
import { DEMO_SESSIONS_DIR, demoStore } from './demo-store.js';
import { seedDemo } from './seed-demo.js';

seedDemo(demoStore(), (line) => console.log(line)).then(
  () => console.log(`sessions in ${DEMO_SESSIONS_DIR}`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
