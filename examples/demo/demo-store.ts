import { fileURLToPath } from 'node:url';
import { FileSessionStore } from '@replan/core';

/** Where the demo keeps its sessions (gitignored), so `pnpm studio` can show them afterwards. */
export const DEMO_SESSIONS_DIR = fileURLToPath(new URL('../../.replan/demo-sessions', import.meta.url));

export const demoStore = (): FileSessionStore => new FileSessionStore({ dir: DEMO_SESSIONS_DIR });
