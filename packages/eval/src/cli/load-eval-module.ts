import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Runner } from '@replan/core';
import { EvalInputError } from '../errors.js';
import type { RunEvalOptions } from '../run/run-eval.js';
import { defineEvalSet, type EvalSet } from '../set/define-eval-set.js';

/**
 * What an eval file gives `replan eval`: the set, and a runner or a runner factory. A file
 * default-exports this object (or a function, maybe async, returning it), or exports `evalSet`
 * with `runner` or `makeRunner`.
 */
export interface EvalModule {
  readonly set: EvalSet;
  readonly runner?: Runner;
  readonly makeRunner?: RunEvalOptions['makeRunner'];
}

type Exports = Record<string, unknown>;

/** Imports a `.ts` (through tsx), `.js` or `.mjs` module given on the command line; an `EvalInputError` of kind `usage` when it cannot. */
export function importModule(path: string): Promise<Exports> {
  return importFile(resolve(path), path, 'file');
}

async function importFile(file: string, shown: string, what = 'eval file'): Promise<Exports> {
  if (!existsSync(file)) throw new EvalInputError('usage', `No ${what} ${shown}: give the path of a .ts, .js or .mjs module.`);
  if (/\.[mc]?tsx?$/.test(file)) {
    let api: { register: () => unknown };
    try {
      api = (await import('tsx/esm/api' as string)) as { register: () => unknown };
    } catch {
      throw new EvalInputError(
        'usage',
        `${shown} is TypeScript: install tsx (pnpm add -D tsx) to load it without a build, or pass the built .js file.`,
      );
    }
    api.register();
  }
  try {
    return (await import(pathToFileURL(file).href)) as Exports;
  } catch (error) {
    if (error instanceof EvalInputError && error.kind === 'set') throw error;
    throw new EvalInputError('usage', `Could not load ${shown}: ${(error as Error).message ?? String(error)}`);
  }
}

const isObject = (value: unknown): value is Exports => typeof value === 'object' && value !== null;

/** Loads an eval file and checks what it exports (an `EvalInputError` of kind `usage`, or an `EvalInputError` of kind `set` for a bad set). */
export async function loadEvalModule(path: string): Promise<EvalModule> {
  const exports = await importFile(resolve(path), path);
  let given: unknown = exports.default;
  if (typeof given === 'function') {
    try {
      given = await (given as () => unknown)();
    } catch (error) {
      if (error instanceof EvalInputError && error.kind === 'set') throw error;
      throw new EvalInputError('usage', `The default export of ${path} threw: ${(error as Error).message ?? String(error)}`);
    }
  }
  const source: Exports =
    isObject(given) && 'set' in given ? given : { set: exports.evalSet, runner: exports.runner, makeRunner: exports.makeRunner };
  if (source.set === undefined)
    throw new EvalInputError(
      'usage',
      `${path} exports no eval set: default-export { set: defineEvalSet(...), runner } (or makeRunner), or export evalSet with runner or makeRunner.`,
    );
  const set = defineEvalSet(source.set as EvalSet);
  const { runner, makeRunner } = source as { runner?: Runner; makeRunner?: EvalModule['makeRunner'] };
  if (!runner === !makeRunner)
    throw new EvalInputError('usage', `${path} must give one of runner (a Runner) or makeRunner ((evalCase) => Runner) with its eval set.`);
  if (makeRunner !== undefined && typeof makeRunner !== 'function')
    throw new EvalInputError('usage', `${path}: makeRunner must be a function.`);
  if (runner !== undefined && (!isObject(runner) || typeof runner.run !== 'function'))
    throw new EvalInputError('usage', `${path}: runner must be a Runner from @replan/core.`);
  return { set, ...(runner ? { runner } : {}), ...(makeRunner ? { makeRunner } : {}) };
}
