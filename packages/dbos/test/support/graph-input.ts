/**
 * A task for the graph scenario the worker processes run (`tests/e2e/child/graph-scenario.mjs`):
 * its scripted models answer from the plan alone, so any input gives the same five-step run.
 */
export const GRAPH_INPUT = 'Record alpha and beta at once, gamma from alpha, delta from alpha and beta, then a report.';
