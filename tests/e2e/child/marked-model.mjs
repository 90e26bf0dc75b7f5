// @ts-check
/** A ScriptedModel that prints a marker and logs an attempt for each call, before its latency. */
import { ScriptedModel } from '@replan/core/testing';

export class MarkedModel extends ScriptedModel {
  /**
   * @param {string} role
   * @param {(label: string) => void} mark
   * @param {(entry: Record<string, unknown>) => void} attempt
   * @param {ConstructorParameters<typeof import('@replan/core/testing').ScriptedModel>[0]} options
   * @param {(request: import('@replan/core').ModelRequest) => string | undefined} [stepOf] which step a call is for (executor models)
   */
  constructor(role, mark, attempt, options, stepOf = () => undefined) {
    super({ id: `${role}-model`, ...options });
    this.role = role;
    this.onCall = (/** @type {import('@replan/core').ModelRequest} */ request) => {
      const step = stepOf(request);
      mark(step === undefined ? `model:${role}` : `model:${role} ${step}`);
      attempt({ kind: 'model', role, ...(step === undefined ? {} : { step }) });
    };
  }

  /** @override @type {ScriptedModel['generate']} */
  generate(request, options) {
    this.onCall(request);
    return super.generate(request, options);
  }
}

/**
 * Makes the marked models of one process.
 * @param {(label: string) => void} mark
 * @param {(entry: Record<string, unknown>) => void} attempt
 * @param {number} latencyMs
 */
export const markedModels =
  (mark, attempt, latencyMs) =>
  (
    /** @type {string} */ role,
    /** @type {NonNullable<NonNullable<ConstructorParameters<typeof import('@replan/core/testing').ScriptedModel>[0]>['respond']>} */ respond,
    /** @type {((request: import('@replan/core').ModelRequest) => string) | undefined} */ stepOf = undefined,
  ) =>
    new MarkedModel(role, mark, attempt, { respond, latencyMs }, stepOf);
