/**
 * `@replan/planexecute/terminal` — `renderRun` prints a plan–execute run as a tree while it runs,
 * then tokens and cost per step.
 * @module
 */
export { renderRun } from './render-run.js';
