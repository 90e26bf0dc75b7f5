/**
 * `@replan/a2a` — replan and the Agent2Agent protocol (A2A), both ways:
 * - `a2aServer({ runner })`: a replan agent served as an A2A agent (JSON-RPC, streaming, durable tasks);
 * - `a2aAgentTool(url)`: a remote A2A agent as a replan tool, its questions becoming durable interrupts.
 *
 * Needs the peer `@a2a-js/sdk` (1.x), loaded on first use.
 * @module
 */
export { a2aServer } from './server/a2a-server.js';
export type { A2aServerOptions, A2aListenOptions, A2aEndpoint, ReplanA2aServer } from './server/a2a-server.js';
export type { A2aCardOptions, A2aSkill, ServedCard } from './server/card-options.js';
export { A2aError } from './a2a-errors.js';
export type { A2aErrorKind } from './a2a-errors.js';
export { a2aAgentTool } from './client/a2a-agent-tool.js';
export type { A2aAgentToolOptions } from './client/a2a-agent-tool.js';
