import type { ChatModel, PriceTable } from '@replan/core';
import { EvalInputError } from '../errors.js';
import { type AnySuite, checkSuite } from '../suites/suite.js';
import { importModule } from './load-eval-module.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isModel = (value: unknown): value is ChatModel =>
  isObject(value) && typeof value.generate === 'function' && typeof value.id === 'string';

/** What `--config <file>` gives: the model for every run (e.g. `aiSdkModel(anthropic('…'))`) and its prices. */
export interface SuiteConfig {
  readonly model: ChatModel;
  readonly prices?: PriceTable;
}

/** Loads `--config <file>`: it default-exports `{ model, prices? }` (or a function returning it), or exports `model`. */
export async function loadSuiteConfig(path: string): Promise<SuiteConfig> {
  const exports = await importModule(path);
  let given: unknown = exports.default ?? exports;
  if (typeof given === 'function') given = await (given as () => unknown)();
  const model = isObject(given) ? given.model : undefined;
  if (!isModel(model))
    throw new EvalInputError(
      'usage',
      `${path} gives no model: default-export { model } with a ChatModel (e.g. aiSdkModel(languageModel) from @replan/ai-sdk).`,
    );
  const prices = isObject(given) ? given.prices : undefined;
  if (prices !== undefined) checkPrices(path, prices);
  return { model, ...(isObject(prices) ? { prices: prices as PriceTable } : {}) };
}

const isRate = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A price table as `Runner` takes it: per model id, `inputPerMillion` and `outputPerMillion` (dollars). */
function checkPrices(path: string, prices: unknown): void {
  const bad = isObject(prices)
    ? Object.entries(prices)
        .filter(([, p]) => !isObject(p) || !isRate(p.inputPerMillion) || !isRate(p.outputPerMillion))
        .map(([id]) => id)
    : ['(not an object)'];
  if (bad.length)
    throw new EvalInputError(
      'usage',
      `${path}: prices must map each model id to { inputPerMillion, outputPerMillion } (dollars per million tokens); check ${bad.join(', ')}.`,
    );
}

/** Loads a suite file: it default-exports a suite (or an array of them), or exports `suite` / `suites`. */
export async function loadSuiteFile(path: string): Promise<AnySuite[]> {
  const exports = await importModule(path);
  const given = exports.default ?? exports.suites ?? exports.suite;
  const suites = Array.isArray(given) ? given : [given];
  if (!suites.length || suites.some((s) => !isObject(s) || typeof s.name !== 'string'))
    throw new EvalInputError(
      'usage',
      `${path} exports no suite: default-export defineSuite({ name, domain, tasks }) (or an array of suites).`,
    );
  // A suite without a domain or task list cannot run at all; a bad task is reported with the rest.
  for (const suite of suites) checkSuite(suite as AnySuite);
  return suites as AnySuite[];
}
