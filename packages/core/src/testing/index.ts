export { ScriptedModel, callTools, reply } from './scripted-model.js';
export type { ScriptedModelOptions, ScriptedReply, ScriptedToolCall } from './scripted-model.js';
export { runSessionStoreContract, contractEvent } from './session-store-contract.js';
export type { ContractTestApi, SessionStoreContractOptions } from './session-store-contract.js';
