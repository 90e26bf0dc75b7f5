import { missingSdkError } from '../a2a-errors.js';

/** The parts of `@a2a-js/sdk/client` that `a2aAgentTool` uses. */
export interface A2aClientSdk {
  readonly ClientFactory: typeof import('@a2a-js/sdk/client').ClientFactory;
  readonly ClientFactoryOptions: typeof import('@a2a-js/sdk/client').ClientFactoryOptions;
  readonly JsonRpcTransportFactory: typeof import('@a2a-js/sdk/client').JsonRpcTransportFactory;
  readonly RestTransportFactory: typeof import('@a2a-js/sdk/client').RestTransportFactory;
  readonly DefaultAgentCardResolver: typeof import('@a2a-js/sdk/client').DefaultAgentCardResolver;
}

/** Imports the SDK's client (a peer dependency) on the tool's first call. */
export async function loadClientSdk(): Promise<A2aClientSdk> {
  try {
    const client = await import('@a2a-js/sdk/client');
    return {
      ClientFactory: client.ClientFactory,
      ClientFactoryOptions: client.ClientFactoryOptions,
      JsonRpcTransportFactory: client.JsonRpcTransportFactory,
      RestTransportFactory: client.RestTransportFactory,
      DefaultAgentCardResolver: client.DefaultAgentCardResolver,
    };
  } catch (cause) {
    throw missingSdkError('a2aAgentTool', cause);
  }
}
