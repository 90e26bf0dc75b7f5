import type { EntryPointOutcome } from './entry-point-project.js';

/**
 * What is wrong with the outcomes of {@link checkEntryPointProject}, one sentence each (none: every entry
 * point loaded with require() and import on every Node, with exports, as one module instance).
 */
export function entryPointProblems(outcomes: readonly EntryPointOutcome[], entryPoints: readonly string[]): string[] {
  const problems: string[] = [];
  for (const outcome of outcomes)
    for (const name of entryPoints) {
      if (!(outcome.required[name] ?? 0)) problems.push(`Node ${outcome.node}: require('${name}') gave no exports`);
      if (!(outcome.imported[name] ?? 0)) problems.push(`Node ${outcome.node}: import('${name}') gave no exports`);
      if (!outcome.sameAsRequire[name])
        problems.push(`Node ${outcome.node}: require('${name}') and import('${name}') gave different modules`);
    }
  return problems;
}
