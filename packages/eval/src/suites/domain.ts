import type { Tool } from '@replan/core';
import { EvalInputError } from '../errors.js';

/**
 * A task environment: a small in-memory database, the deterministic tools that read and change it,
 * and the policy text the agent is given. Every run of a task gets a fresh database from `db()`.
 */
export interface Domain<Db> {
  readonly name: string;
  /** A fresh database for one run (never shared between runs). */
  readonly db: () => Db;
  /** The tools over one run's database. They must be deterministic: the same calls give the same results. */
  readonly tools: (db: Db) => readonly Tool[];
  /** The rules the agent must follow (the tools enforce them too), given to the agent with each request. */
  readonly policy: string;
}

const NAME = /^[a-z][a-z0-9-]{0,63}$/;

/** Checks a domain and returns it. Throws an `EvalInputError` of kind `set` naming what is wrong. */
export function defineDomain<Db>(domain: Domain<Db>): Domain<Db> {
  if (typeof domain?.name !== 'string' || !NAME.test(domain.name))
    throw new EvalInputError(
      'set',
      `defineDomain: name must be lower-case letters, digits and dashes (e.g. "travel"), not ${JSON.stringify(domain?.name)}.`,
    );
  if (typeof domain.db !== 'function')
    throw new EvalInputError('set', `defineDomain("${domain.name}"): db must be a function returning a fresh database.`);
  if (typeof domain.tools !== 'function')
    throw new EvalInputError('set', `defineDomain("${domain.name}"): tools must be a function of the database.`);
  if (typeof domain.policy !== 'string' || !domain.policy.trim())
    throw new EvalInputError('set', `defineDomain("${domain.name}"): policy must be non-empty text.`);
  return domain;
}
