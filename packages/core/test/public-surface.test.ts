import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

// The value exports of each entry point, listed so that a change to the public surface is a visible diff.
// The main entry holds what an application uses; agent-kit and store-kit what agent and store authors need.
const valueExports = async (entry: Promise<Record<string, unknown>>) => Object.keys(await entry).sort();

describe('public surface of @replan/core', () => {
  it('the main entry exports what an application uses', async () => {
    expect(await valueExports(import('@replan/core'))).toEqual([
      'AgentToolError',
      'BlobLimitError',
      'BudgetExceededError',
      'COMMON_IMAGE_TYPES',
      'ChildSessionError',
      'CompactionError',
      'CompensationError',
      'ConcurrentUpdateError',
      'ConfigurationError',
      'EmptyModelResponseError',
      'FallbackExhaustedError',
      'FileSessionStore',
      'GuardrailError',
      'InMemorySessionStore',
      'InvalidArgumentError',
      'InvalidMediaError',
      'LeaseLostError',
      'LoopAgent',
      'MaxIterationsError',
      'ModelCallError',
      'ModelError',
      'OutputValidationError',
      'ParallelAgent',
      'ReActAgent',
      'ReplanError',
      'ReplayError',
      'ResumeError',
      'RunAbortedError',
      'Runner',
      'SequentialAgent',
      'SessionBusyError',
      'SessionCorruptError',
      'SessionExistsError',
      'SessionNotFoundError',
      'SessionStoreError',
      'StateValueError',
      'UnsupportedMediaError',
      'agentTool',
      'assistantMessage',
      'builtInThinking',
      'compaction',
      'costOfEvent',
      'eventKind',
      'fallbackModel',
      'fileFromBytes',
      'fileFromPath',
      'fileFromUrl',
      'guardrails',
      'hooks',
      'imageFromBytes',
      'imageFromFile',
      'imageFromUrl',
      'inlineBlobs',
      'isApprovalAnswer',
      'jsonSchema',
      'messageText',
      'modelErrorOf',
      'offloadToolResults',
      'planReActTags',
      'promptCache',
      'readChildSessionLink',
      'reasoningOf',
      'sessionTotals',
      'stringifyToolOutput',
      'systemMessage',
      'textBlock',
      'tool',
      'toolCallsOf',
      'toolMessage',
      'toolResultsOf',
      'userMessage',
    ]);
  });

  it('@replan/core/agent-kit exports what agent authors need', async () => {
    expect(await valueExports(import('@replan/core/agent-kit'))).toEqual([
      'AGENT_TOOL_INPUT_KIND',
      'AnswerGate',
      'AsyncQueue',
      'InterruptSignal',
      'InvocationContext',
      'QUOTE_BEGIN',
      'QUOTE_END',
      'RunBudget',
      'RunInterruptedSignal',
      'abortErrorOf',
      'addUsage',
      'agentToolParameters',
      'approvalInterruptId',
      'assertAgentName',
      'buildContextMessages',
      'callModel',
      'callModelThrough',
      'childSessionId',
      'childSessionRoot',
      'emptyUsage',
      'executeToolCalls',
      'guardrailBlockOf',
      'guardrailBlockText',
      'headTailPreview',
      'imageTypeRefusal',
      'imageTypeSet',
      'isBase64',
      'isMediaBlock',
      'joinPlanReActTags',
      'kindOfStatus',
      'mediaByteLength',
      'mediaPlaceholder',
      'modelErrorKindOf',
      'neutraliseMarkers',
      'normalMediaType',
      'promptCacheKey',
      'quotePreamble',
      'quoteValue',
      'quotedBlock',
      'raceAbort',
      'retryModelCall',
      'runAgent',
      'splitPlanReActTags',
      'streamModelCall',
      'toolCallRun',
      'toolInterruptId',
      'toolParametersSchema',
      'toolResultContent',
      'toolSpecOf',
      'totalTokens',
      'unsentToolMediaText',
      'withheldAnswers',
    ]);
  });

  it('@replan/core/store-kit exports what store authors need', async () => {
    expect(await valueExports(import('@replan/core/store-kit'))).toEqual([
      'APP_PREFIX',
      'MAX_ID_LENGTH',
      'SESSION_SCHEMA_VERSION',
      'USER_PREFIX',
      'acquireFrom',
      'agentEventSchema',
      'assertAppendLease',
      'assertExpectedVersion',
      'assertLeaseOwner',
      'assertLeaseTtl',
      'assertPageLimit',
      'assertSchemaVersion',
      'assertSessionBlobTotal',
      'assertSessionKey',
      'assertSessionLease',
      'assertUserKey',
      'blobsToStore',
      'compareSummaries',
      'decodeCursor',
      'decodeStoredEvent',
      'encodeCursor',
      'eventsForStorage',
      'extractBlobs',
      'foldSessionState',
      'holderState',
      'isBlobId',
      'isCurrentLease',
      'isHolderGone',
      'isReadableSchemaVersion',
      'jsonStateDelta',
      'liveHolderOf',
      'mediaOf',
      'pageSummaries',
      'renewFrom',
      'resolveBlobLimits',
      'splitStateDelta',
      'stateScopeOf',
      'thisProcess',
      'unheldBlobError',
    ]);
  });

  it('@replan/core/testing exports the scripted model, the store contract suite and replay', async () => {
    expect(await valueExports(import('@replan/core/testing'))).toEqual([
      'ReplayModel',
      'ScriptedModel',
      'callTools',
      'checkRecording',
      'contractEvent',
      'holdAppend',
      'recordedToolCalls',
      'replayTools',
      'reply',
      'requestParts',
      'runSessionStoreContract',
      'testMiddleware',
    ]);
  });

  it('no name is exported by two entries (one way to import each thing)', async () => {
    const entries: [string, string[]][] = [
      ['@replan/core', await valueExports(import('@replan/core'))],
      ['@replan/core/agent-kit', await valueExports(import('@replan/core/agent-kit'))],
      ['@replan/core/store-kit', await valueExports(import('@replan/core/store-kit'))],
      ['@replan/core/testing', await valueExports(import('@replan/core/testing'))],
    ];
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [entry, names] of entries)
      for (const name of names) {
        const first = seen.get(name);
        if (first) twice.push(`${name} (${first} and ${entry})`);
        seen.set(name, entry);
      }
    expect(twice).toEqual([]);
  });

  it('package.json maps every entry point to its built types and module', async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
    expect(pkg.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './agent-kit': { types: './dist/agent-kit/index.d.ts', default: './dist/agent-kit/index.js' },
      './store-kit': { types: './dist/store-kit/index.d.ts', default: './dist/store-kit/index.js' },
      './testing': { types: './dist/testing/index.d.ts', default: './dist/testing/index.js' },
    });
  });
});
