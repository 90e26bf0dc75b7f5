import { ConfigurationError, type ChatModel } from '@replan/core';

/** Fails construction early when no usable model is given. */
export function assertModel(model: ChatModel | undefined, who: string): void {
  if (!model || typeof model.generate !== 'function' || typeof model.stream !== 'function')
    throw new ConfigurationError(`${who} needs a model (a ChatModel, e.g. new OpenAIChatModel(...) or a ScriptedModel).`);
}
