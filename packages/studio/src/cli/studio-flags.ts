import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CliArgs, flag } from './cli-args.js';

/** What `replan studio` serves beyond the store: the runners module and the app names to offer. */
export interface StudioFlags {
  readonly runners: string | undefined;
  readonly apps: readonly string[];
}

const MODULE_FILE = /\.[cm]?[jt]sx?$/;

/** A value that names a module rather than an app: a script file name, or a file that exists. */
function isModulePath(value: string): boolean {
  if (MODULE_FILE.test(value)) return true;
  const path = resolve(value);
  return existsSync(path) && statSync(path).isFile();
}

/**
 * `--runners <module>` and the app names (`--app`, and `--app-name`, its older spelling). Before
 * `--runners`, `studio --app` took the module; a value that names a module is still taken as one,
 * with a line on `warn` saying the new spelling, so scripts written then keep working.
 */
export function studioFlags(args: CliArgs, warn: (text: string) => void): StudioFlags {
  let runners = flag(args, 'runners');
  const apps = [...(args.flags.get('app-name') ?? [])];
  for (const value of args.flags.get('app') ?? []) {
    if (!isModulePath(value)) {
      apps.push(value);
      continue;
    }
    warn(`replan studio: --app <module> is deprecated; use --runners ${value} (--app now names an app).`);
    runners ??= value;
  }
  return { runners, apps };
}
