import { missingSdkError } from '../a2a-errors.js';

/** The parts of `@a2a-js/sdk` that serving an agent uses. */
export interface A2aServerSdk {
  readonly JsonRpcTransportHandler: typeof import('@a2a-js/sdk/server').JsonRpcTransportHandler;
  readonly ServerCallContext: typeof import('@a2a-js/sdk/server').ServerCallContext;
  readonly AgentCard: typeof import('@a2a-js/sdk').AgentCard;
  readonly formatSSEEvent: typeof import('@a2a-js/sdk').formatSSEEvent;
  readonly formatSSEErrorEvent: typeof import('@a2a-js/sdk').formatSSEErrorEvent;
  readonly errors: typeof import('@a2a-js/sdk/errors');
}

/**
 * Imports the SDK (a peer dependency) on first use: an app that imports `@replan/a2a` without
 * serving an agent never loads it, and one without it gets a `ConfigurationError` saying what to install.
 */
export async function loadServerSdk(): Promise<A2aServerSdk> {
  try {
    const [server, root, errors] = await Promise.all([import('@a2a-js/sdk/server'), import('@a2a-js/sdk'), import('@a2a-js/sdk/errors')]);
    return {
      JsonRpcTransportHandler: server.JsonRpcTransportHandler,
      ServerCallContext: server.ServerCallContext,
      AgentCard: root.AgentCard,
      formatSSEEvent: root.formatSSEEvent,
      formatSSEErrorEvent: root.formatSSEErrorEvent,
      errors,
    };
  } catch (cause) {
    throw missingSdkError('a2aServer', cause);
  }
}
