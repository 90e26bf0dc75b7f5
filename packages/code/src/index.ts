/**
 * `@replan/code` — code steps (design §22): `codeTool({ tools, limits? })` lets a model write one
 * JavaScript program that calls tools in a loop, run in a QuickJS (WASM) sandbox, each inner call
 * stored in the session so a resumed program never repeats a finished side effect.
 * @module
 */
export { codeTool } from './code-tool.js';
export type { CodeToolOptions, CodeResult } from './code-tool.js';
export type { CodeLimits } from './code-limits.js';
export { CodeReplayMismatchError } from './code-replay-mismatch-error.js';
