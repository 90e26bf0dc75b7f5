#!/usr/bin/env node
import { ReplanError } from '@replan/core';
import { StudioError } from '../errors.js';
import { runCli } from './run-cli.js';

// The `replan` bin: parse, run, print errors without a stack when they are the user's to fix.
const stopped = new Promise<void>((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});

runCli(process.argv.slice(2), { out: (text) => console.log(text), err: (text) => console.error(text), stopped }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // replan's typed errors say what to do: their message is enough.
    if (error instanceof ReplanError) console.error(`${error.name}: ${error.message}`);
    else console.error(error);
    process.exit(error instanceof StudioError && error.kind === 'usage' ? 2 : 1);
  },
);
