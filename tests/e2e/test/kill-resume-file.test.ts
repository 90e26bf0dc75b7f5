import { describe, it } from 'vitest';
import { killEverywhere } from './support/kill-everywhere.js';
import { fileTarget } from './support/store-target.js';

describe('FileSessionStore: SIGKILL at any point of a plan–execute run, then resume in a new process', () => {
  it('every run ends as the uninterrupted one; completed work never runs again; each side effect exactly once', () =>
    killEverywhere(fileTarget), 300_000);
});
