import type { StdioClientTransport, StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { forgetChild, rememberChild } from './child-processes.js';
import type { McpSdk } from './load-mcp-sdk.js';
import { BoundedMessageReader } from './mcp-message-reader.js';

/**
 * The SDK's stdio transport (its spawning, environment and shutdown: stdin closed, then SIGTERM,
 * then SIGKILL) with two changes:
 * - its read buffer is a `BoundedMessageReader`: an answer over the limit fails its one request
 *   instead of ending the session (the SDK's own buffer throws, and the transport then kills a
 *   healthy server);
 * - the server's pid is remembered from the moment it is spawned until it has exited, so the owner's
 *   exit kills it even while it is still connecting or being shut down.
 */
export function boundedStdioTransport(sdk: McpSdk, params: StdioServerParameters, maxMessageBytes: number): StdioClientTransport {
  const reader = new BoundedMessageReader(maxMessageBytes, sdk.deserializeMessage);
  const transport = new (boundedClassOf(sdk.StdioClientTransport))({ ...params, maxBufferSize: maxMessageBytes }, reader);
  return transport;
}

type StdioClass = McpSdk['StdioClientTransport'];
const classes = new WeakMap<StdioClass, ReturnType<typeof makeBoundedClass>>();
const boundedClassOf = (Base: StdioClass) => {
  const made = classes.get(Base) ?? makeBoundedClass(Base);
  classes.set(Base, made);
  return made;
};

function makeBoundedClass(Base: StdioClass) {
  return class BoundedStdioTransport extends Base {
    constructor(
      params: StdioServerParameters,
      private readonly reader: BoundedMessageReader,
    ) {
      super(params);
      // The SDK keeps its buffer in `_readBuffer` (append, readMessage, clear). Should a later SDK
      // rename it, this leaves the SDK's own buffer in place, with the same limit (maxBufferSize).
      const internals = this as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown } };
      if (typeof internals._readBuffer?.append === 'function' && typeof internals._readBuffer.readMessage === 'function')
        internals._readBuffer = reader;
    }

    override async start(): Promise<void> {
      await super.start();
      const pid = this.pid;
      if (pid === null) return;
      rememberChild(pid);
      // The Protocol set onclose before start(); the transport calls it once the process has exited.
      const onclose = this.onclose;
      this.onclose = () => {
        forgetChild(pid);
        onclose?.();
      };
    }

    override send(message: JSONRPCMessage): Promise<void> {
      this.reader.sent(message);
      return super.send(message);
    }
  };
}
