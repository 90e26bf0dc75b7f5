#!/usr/bin/env node
// The `replan` bin. The CLI itself is built into dist/cli/main.js; this file is in the sources, so
// a workspace install links the bin before anything is built (pnpm warns when a bin's file is missing).
try {
  await import('../dist/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
  console.error('replan: @replan/studio is not built yet: run `pnpm build` (tsc -b) in the replan repository first.');
  process.exit(1);
}
