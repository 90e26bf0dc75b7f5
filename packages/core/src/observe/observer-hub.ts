import type { RunLifecycleEvent, RunObserver, RunStartInfo } from './run-observer.js';

/** Receives an observer's failure (once per observer); default: `console.warn`. */
export type ObserverErrorHandler = (error: unknown, observer: RunObserver) => void;

type Handlers = {
  [E in RunLifecycleEvent as E['kind']]: (info: E) => void;
};
const METHOD: { readonly [K in RunLifecycleEvent['kind']]: keyof RunObserver } = {
  'run-start': 'onRunStart',
  'run-end': 'onRunEnd',
  'agent-start': 'onAgentStart',
  'agent-end': 'onAgentEnd',
  'model-call-start': 'onModelCallStart',
  'model-call-end': 'onModelCallEnd',
  'tool-call-start': 'onToolCallStart',
  'tool-call-end': 'onToolCallEnd',
  'compaction-start': 'onCompactionStart',
  'compaction-end': 'onCompactionEnd',
  interrupt: 'onInterrupt',
  resume: 'onResume',
  cancel: 'onCancel',
};

const defaultHandler: ObserverErrorHandler = (error, observer) =>
  console.warn(`replan: a run observer (${observer.constructor?.name ?? 'object'}) threw and is ignored from now on:`, error);

/**
 * Hands lifecycle events to a runner's observers. An observer that throws (or whose handler returns
 * a rejected promise) is reported once and dropped, so it can neither break a run nor flood logs.
 */
export class ObserverHub {
  private readonly observers: RunObserver[];
  private readonly onError: ObserverErrorHandler;

  constructor(observers: readonly RunObserver[], onError: ObserverErrorHandler = defaultHandler) {
    this.observers = [...observers];
    this.onError = onError;
  }

  /** Calls every live observer's handler for `info.kind`. */
  notify<E extends RunLifecycleEvent>(info: E): void {
    const method = METHOD[info.kind];
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) {
      const observer = observers[i] as RunObserver;
      const handler = observer[method] as Handlers[E['kind']] | undefined;
      if (!handler) continue;
      try {
        const returned: unknown = (handler as (i: E) => unknown).call(observer, info);
        if (returned && typeof (returned as Promise<unknown>).then === 'function')
          (returned as Promise<unknown>).then(undefined, (error: unknown) => this.drop(observer, error));
      } catch (error) {
        this.drop(observer, error);
        i--; // it left the list: the next observer is now at i
      }
    }
  }

  /** What observers want kept with a new invocation (see `RunObserver.carry`). */
  carry(info: RunStartInfo): Record<string, string> | undefined {
    let carried: Record<string, string> | undefined;
    for (const observer of this.observers.slice()) {
      if (!observer.carry) continue;
      try {
        const pairs = observer.carry(info);
        if (pairs) carried = { ...carried, ...pairs };
      } catch (error) {
        this.drop(observer, error);
      }
    }
    return carried;
  }

  private drop(observer: RunObserver, error: unknown): void {
    const i = this.observers.indexOf(observer);
    if (i < 0) return; // already reported
    this.observers.splice(i, 1);
    try {
      this.onError(error, observer);
    } catch {
      // the report itself failed: nothing more to do without risking the run
    }
  }
}
