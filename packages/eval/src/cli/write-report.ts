import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { EvalInputError } from '../errors.js';

/** Writes a report file (making its directory); an `EvalInputError` of kind `usage` naming the path when it cannot. */
export async function writeReport(path: string, text: string, what: string): Promise<void> {
  try {
    await mkdir(dirname(resolve(path)), { recursive: true });
    await writeFile(path, text);
  } catch (error) {
    throw new EvalInputError('usage', `Cannot write the ${what} report to ${path}: ${(error as Error).message}`);
  }
}
