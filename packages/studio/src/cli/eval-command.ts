import { StudioError } from '../errors.js';
import { findSession, ownerCandidates } from './find-session.js';
import { openStore } from './open-store.js';

/**
 * `replan eval …`: the eval logic lives in `@replan/eval` (an optional peer, loaded here on first
 * use); this CLI lends it its store opening (directories and postgres:// URLs) and session lookup.
 */
export async function evalCommand(
  argv: readonly string[],
  io: { out: (text: string) => void; err?: (text: string) => void },
): Promise<number> {
  let evalPackage: typeof import('@replan/eval/cli');
  try {
    evalPackage = await import('@replan/eval/cli');
  } catch (error) {
    // Only a missing package is the user's to fix; a package that fails to load is a bug to report as it is.
    const missing =
      (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes('@replan/eval');
    if (!missing) throw error;
    throw new StudioError('usage', 'replan eval needs the @replan/eval package: pnpm add -D @replan/eval');
  }
  return evalPackage.runEvalCli(argv, {
    out: io.out,
    ...(io.err ? { err: io.err } : {}),
    openStore,
    findSession: async (store, id, owner) => {
      const candidates = await ownerCandidates(store, owner.appName, owner.userId);
      if (!candidates.length)
        throw new StudioError('usage', 'Give --app <name> and --user <id>: this store cannot list its apps and users.');
      return findSession(store, id, candidates);
    },
  });
}
