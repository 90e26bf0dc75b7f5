/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions this package follows
 * (semantic-conventions v1.41.0, GenAI spans and agent spans — status Development), and replan's own.
 */
export const Attr = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  agentDescription: 'gen_ai.agent.description',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTemperature: 'gen_ai.request.temperature',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  responseModel: 'gen_ai.response.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  // replan's own
  /** The work label of an agent run (`AgentScope.label`: plan–execute's step id or number). */
  stepId: 'replan.step.id',
  agentPath: 'replan.agent.path',
  branch: 'replan.branch',
  invocationId: 'replan.invocation.id',
  runStatus: 'replan.run.status',
  guardrailName: 'replan.guardrail.name',
  guardrailStage: 'replan.guardrail.stage',
  guardrailReason: 'replan.guardrail.reason',
  resumed: 'replan.resumed',
  interrupted: 'replan.interrupted',
  parentToolCallId: 'replan.parent.tool_call.id',
  /** On an `execute_tool` span of a compensation: the id of the tool call it undoes. */
  compensates: 'replan.compensates.tool_call.id',
  /** On a run closed by `runner.cancel`: whether its finished calls were to be undone. */
  cancelCompensate: 'replan.cancel.compensate',
  cost: 'replan.cost',
  compactionTokensBefore: 'replan.compaction.tokens_before',
  compactionTokensAfter: 'replan.compaction.tokens_after',
  compactionInputTokens: 'replan.compaction.summarizer.input_tokens',
  compactionOutputTokens: 'replan.compaction.summarizer.output_tokens',
  compactionSummary: 'replan.compaction.summary',
  /** On an inner call of a code step (`@replan/code`): the call's number in its program (its span's parent is the code call's). */
  codeCallIndex: 'replan.code_call.index',
} as const;

/** The value of `gen_ai.provider.name` when the model does not name its provider. */
export const UNKNOWN_PROVIDER = '_OTHER';
