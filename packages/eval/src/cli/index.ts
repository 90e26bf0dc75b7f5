/**
 * `@replan/eval/cli` — the `replan eval` command, for the `replan` CLI of `@replan/studio` (which
 * lends it store opening and session lookup). Applications use `@replan/eval` itself.
 * @module
 */
export { runEvalCli } from './run-eval-cli.js';
