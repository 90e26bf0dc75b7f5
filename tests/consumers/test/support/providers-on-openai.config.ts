import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { alias } from '../../../../vitest.workspace.js';

/**
 * `@replan/providers`' own tests (every one talks to a fake OpenAI-compatible server on 127.0.0.1
 * through the real `openai` client), with `openai` taken from `REPLAN_OPENAI_DIR`'s `node_modules`
 * rather than the workspace's: tests/consumers/test/openai-majors.test.ts runs it with openai 7 on Node 24.
 */
const dir = process.env.REPLAN_OPENAI_DIR;
if (!dir) throw new Error('Set REPLAN_OPENAI_DIR to a directory whose node_modules holds the openai to test with.');
const openai = join(dir, 'node_modules/openai');

export default defineConfig({
  resolve: {
    // `openai` and its subpaths (`openai/version`) from that directory: the sources under test import them there.
    alias: [...alias, { find: /^openai(\/.*)?$/, replacement: `${openai}$1` }],
  },
  test: {
    name: 'providers-on-openai',
    root: fileURLToPath(new URL('../../../../packages/providers', import.meta.url)),
    include: ['test/**/*.test.ts'],
    setupFiles: [fileURLToPath(new URL('../../../../packages/providers/test/support/openai-version-setup.ts', import.meta.url))],
    testTimeout: 20_000,
  },
});
