import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory outside the repository (so nothing resolves through the repo's own node_modules). */
export const freshDir = (label: string): Promise<string> => mkdtemp(join(tmpdir(), `replan-consumer-${label}-`));
