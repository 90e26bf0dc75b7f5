import { describe, it } from 'vitest';
import { graphKills } from './support/graph-kill-scenario.js';
import { killEverywhere } from './support/kill-everywhere.js';
import { linearKills } from './support/linear-kill-scenario.js';
import { fileTarget } from './support/store-target.js';

describe('FileSessionStore: SIGKILL at any point of a plan–execute run, then resume in a new process', () => {
  it(
    'every run ends as the uninterrupted one; completed work never runs again; each side effect exactly once',
    () => killEverywhere(fileTarget, linearKills),
    300_000,
  );
  it(
    'graph mode, killed before, inside and after its parallel waves: the same per-step events and state, no finished step or tool re-run',
    () => killEverywhere(fileTarget, graphKills),
    300_000,
  );
});
