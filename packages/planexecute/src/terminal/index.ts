export { renderRun } from './render-run.js';
export type { RenderRunOptions, RenderTarget } from './render-run.js';
export { RunTreeView } from './run-tree-view.js';
export type { RunTreeViewOptions } from './run-tree-view.js';
export { terminalStyle } from './terminal-style.js';
export type { TerminalStyle } from './terminal-style.js';
