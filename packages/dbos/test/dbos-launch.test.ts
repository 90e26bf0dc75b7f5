import { describe, expect, it } from 'vitest';
import { ConfigurationError, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { DbosError, dbosRuns } from '@replan/dbos';

const runner = (appName = 'app') =>
  new Runner({ appName, agent: new ReActAgent({ name: 'agent', model: new ScriptedModel({ respond: () => 'hi' }) }) });

describe('dbosRuns before and at launch', () => {
  it('DBOS unreachable at launch: a DbosError (unreachable) naming the connection, password masked', async () => {
    const runs = dbosRuns({ runners: runner() });
    const launching = runs.launch({ systemDatabaseUrl: 'postgresql://postgres:s3cret@127.0.0.1:1/replan_nowhere' });
    await expect(launching).rejects.toBeInstanceOf(DbosError);
    await expect(launching).rejects.toMatchObject({ kind: 'unreachable' });
    const error = (await launching.catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('127.0.0.1:1/replan_nowhere');
    expect(error.message).not.toContain('s3cret');
  });

  it('refuses bad options and calls before launch with ConfigurationErrors that say what to do', async () => {
    expect(() => dbosRuns({ runners: [] })).toThrow(ConfigurationError);
    expect(() => dbosRuns({ runners: [runner('a'), runner('a')] })).toThrow(/distinct appNames/);
    expect(() => dbosRuns({ runners: runner(), concurrency: 0 })).toThrow(/concurrency must be a positive integer/);
    const runs = dbosRuns({ runners: runner() });
    await expect(runs.start({ userId: 'u', input: 'hi' })).rejects.toThrow(/Call launch\(\) before start/);
    await expect(runs.result({ userId: 'u', sessionId: 's' })).rejects.toThrow(ConfigurationError);
    await expect(runs.launch({ systemDatabaseUrl: '' })).rejects.toThrow(/systemDatabaseUrl/);
  });
});
