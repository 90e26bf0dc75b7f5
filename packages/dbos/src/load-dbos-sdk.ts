import { ConfigurationError } from '@replan/core';

/** The parts of `@dbos-inc/dbos-sdk` this package uses. */
export type DbosSdk = typeof import('@dbos-inc/dbos-sdk');
export type Dbos = DbosSdk['DBOS'];

let loading: Promise<DbosSdk> | undefined;

/**
 * Imports the DBOS SDK (an optional peer dependency) on first use: an app that imports
 * `@replan/dbos` but never launches DBOS does not load it, and one without it gets a
 * `ConfigurationError` saying what to install.
 */
export function loadDbosSdk(): Promise<DbosSdk> {
  loading ??= import('@dbos-inc/dbos-sdk').catch((cause: unknown) => {
    loading = undefined;
    throw new ConfigurationError(
      'dbosRuns needs the DBOS SDK, an optional peer dependency of @replan/dbos: install it with `pnpm add @dbos-inc/dbos-sdk@^5` (or npm i).',
      { cause },
    );
  });
  return loading;
}
