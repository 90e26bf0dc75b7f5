import {
  newQuickJSWASMModule,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';
import { PRELUDE } from './prelude.js';

/** The limits one execution runs under (all set: defaults are applied by `codeTool`). */
export interface SandboxLimits {
  readonly timeMs: number;
  readonly memoryBytes: number;
  readonly outputBytes: number;
}

/** What a tool call answers the program: a value, or an error result's text (a rejected call inside). */
export type CallAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export interface SandboxRun {
  readonly program: string;
  readonly limits: SandboxLimits;
  readonly toolNames: readonly string[];
  /** What `Date.now()` returns inside (frozen: the program re-runs on resume and must see the same). */
  readonly now: number;
  /** Seeds `Math.random` inside. */
  readonly seed: number;
  /** The run's abort signal: aborting ends the execution at once (`stopped` with the abort reason). */
  readonly signal: AbortSignal;
  /**
   * A tool call the program made, `index` its 0-based position; `args` is plain JSON parsed on the
   * host. Rejecting stops the program at once (`stopped` with that error): for what the program
   * must not catch (a replay mismatch, an interrupt, a limit).
   */
  call(name: string, args: unknown, index: number): Promise<CallAnswer>;
}

/** How an execution ended. `logs` are the `console` lines written before it did. */
export type SandboxOutcome =
  | { readonly kind: 'returned'; readonly value: unknown; readonly json: string; readonly logs: readonly string[] }
  | {
      readonly kind: 'syntax' | 'thrown' | 'non-json' | 'time' | 'memory' | 'output';
      readonly message: string;
      readonly logs: readonly string[];
    }
  | { readonly kind: 'stopped'; readonly error: unknown; readonly logs: readonly string[] };

type Failure = Exclude<SandboxOutcome, { kind: 'returned' } | { kind: 'stopped' }>['kind'];

/** Stack for the program (recursion depth): a runaway recursion is a `RangeError`-like error, never a host crash. */
const STACK_BYTES = 256 * 1024;
/**
 * Runtimes created and not yet freed (each execution has its own, freed when it ends, or dropped
 * with its module when it cannot be): tests check none is left over many runs.
 */
const open = new Set<QuickJSRuntime>();
export const liveSandboxes = (): number => open.size;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The WASM module executions share. QuickJS 0.32 cannot free a runtime after an out-of-memory
 * error or a stack overflow (its `JS_FreeRuntime` assertion aborts the module: quickjs-emscripten
 * issues #60, #257), so such a runtime is never disposed: the module it lives in is dropped
 * whole (its memory goes with it once executions still on it end) and the next execution loads
 * a fresh one. The process is never harmed.
 */
let shared: Promise<QuickJSWASMModule> | undefined;
const moduleNow = (): Promise<QuickJSWASMModule> => {
  shared ??= newQuickJSWASMModule();
  return shared;
};
/**
 * The size of a module's WASM memory (emscripten's heap view; not public API, so read
 * defensively: 0 when absent). QuickJS's memory limit counts what it allocates, but some
 * allocation patterns (an array grown element by element) make the WASM heap grow far past it
 * before "out of memory" comes — and a WASM memory never shrinks. So the heap is watched too.
 */
const heapOf = (module: QuickJSWASMModule): number =>
  (module as unknown as { module?: { HEAPU8?: Uint8Array } }).module?.HEAPU8?.length ?? 0;
/** A module whose heap grew past this after an execution is dropped (its memory freed with it). */
const KEEP_HEAP_BELOW = 256 * 1024 * 1024;

const dropModule = (module: Promise<QuickJSWASMModule>) => {
  if (shared === module) shared = undefined;
};
/** Engine states after which the runtime cannot be freed (see `shared`). */
const TAINTING = /out of memory|stack overflow/i;

/**
 * Runs one program in a fresh QuickJS runtime and context (pure WASM, the sync build: host
 * functions answer through promises the program awaits, so no asyncify) and disposes both
 * whatever happens. The program is an async function body of `(tools, console)`.
 */
export async function runSandboxed(run: SandboxRun): Promise<SandboxOutcome> {
  const modulePromise = moduleNow();
  const quickjs = await modulePromise;
  let tainted = false;
  // The heap may grow this much during one execution (QuickJS's own accounting is the finer limit).
  const heapCap = heapOf(quickjs) + 4 * run.limits.memoryBytes + 16 * 1024 * 1024;
  let heapExceeded = false;
  const heapOver = () => {
    if (heapOf(quickjs) > heapCap) heapExceeded = true;
    return heapExceeded;
  };
  const { limits } = run;
  const logs: string[] = [];
  let logBytes = 0;
  let outcome: SandboxOutcome | undefined;
  let wake: (() => void) | undefined;
  const end = (o: SandboxOutcome) => {
    if (!outcome) outcome = o;
    wake?.();
  };
  const fail = (kind: Failure, message: string) => end({ kind, message, logs });
  const deadline = Date.now() + limits.timeMs;
  const timeText = `the program ran longer than limits.timeMs = ${limits.timeMs} ms (tool calls included); make it do less per call, or split the work`;

  const runtime: QuickJSRuntime = quickjs.newRuntime();
  open.add(runtime);
  let context: QuickJSContext | undefined;
  const onAbort = () => end({ kind: 'stopped', error: run.signal.reason, logs });
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(STACK_BYTES);
    // Checked by QuickJS as it runs: past the deadline, or once the execution has ended, it stops (uncatchable).
    runtime.setInterruptHandler(() => outcome !== undefined || Date.now() > deadline || heapOver());
    const vm = runtime.newContext();
    context = vm;
    if (run.signal.aborted) onAbort();
    run.signal.addEventListener('abort', onAbort, { once: true });

    /** A QuickJS exception as text; `kind` says which limit it was, when one was. */
    const exceptionOf = (handle: QuickJSHandle): { kind: Failure; message: string } => {
      runtime.setMemoryLimit(-1); // reading an out-of-memory error needs memory
      let text: string;
      try {
        const error = vm.dump(handle) as { name?: unknown; message?: unknown } | unknown;
        text =
          error && typeof error === 'object' && 'message' in error
            ? `${String((error as { name?: unknown }).name ?? 'Error')}: ${String((error as { message: unknown }).message)}`
            : String(error);
      } catch {
        text = 'an error that cannot be read';
      } finally {
        handle.dispose();
        runtime.setMemoryLimit(limits.memoryBytes);
      }
      return classify(text);
    };
    const classify = (text: string): { kind: Failure; message: string } => {
      if (TAINTING.test(text)) tainted = true;
      if (heapExceeded) {
        tainted = true; // its heap is to be given back: the module goes
        return {
          kind: 'memory',
          message: `the program used more than limits.memoryBytes = ${limits.memoryBytes} bytes of memory (its heap kept growing)`,
        };
      }
      if (/out of memory/i.test(text))
        return {
          kind: 'memory',
          message: `the program used more than limits.memoryBytes = ${limits.memoryBytes} bytes of memory (${text})`,
        };
      if (/interrupted/i.test(text) && Date.now() > deadline) return { kind: 'time', message: timeText };
      return { kind: 'thrown', message: text };
    };
    /** Runs the jobs promises queued (the program going on after an await); an uncaught stop ends it. */
    const pump = () => {
      if (outcome) return;
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        const { kind, message } = exceptionOf(jobs.error);
        fail(kind, message);
      }
    };

    const hostCall = vm.newFunction('hostCall', (nameH, jsonH, idH) => {
      const name = vm.getString(nameH);
      const json = vm.getString(jsonH);
      const id = vm.getNumber(idH);
      // Parsed here, on the host: the tool gets plain JSON, whatever the program did to its prototypes.
      const args: unknown = JSON.parse(json);
      run.call(name, args, id).then(
        (answer) => {
          if (outcome || !vm.alive) return;
          const text = vm.newString(JSON.stringify(answer));
          const idHandle = vm.newNumber(id);
          const settled = vm.callFunction(settle, vm.undefined, idHandle, text);
          text.dispose();
          idHandle.dispose();
          if (settled.error) {
            const { kind, message } = exceptionOf(settled.error);
            fail(kind, message);
          } else settled.value.dispose();
          pump();
          wake?.();
        },
        (error: unknown) => end({ kind: 'stopped', error, logs }),
      );
    });
    const outputText = `the program's console output and result exceed limits.outputBytes = ${limits.outputBytes} bytes; log less and return less (a summary, or the first items)`;
    const hostLog = vm.newFunction('hostLog', (textH) => {
      const text = vm.getString(textH);
      logBytes += utf8(text) + 1;
      if (logBytes > limits.outputBytes) {
        fail('output', outputText);
        return;
      }
      logs.push(text);
    });
    const hostFinish = vm.newFunction('hostFinish', (okH, textH, kindH) => {
      const ok = vm.dump(okH) === true;
      const text = vm.getString(textH);
      if (!ok) {
        if (vm.getString(kindH) === 'non-json') fail('non-json', text);
        else {
          const { kind, message } = classify(text);
          fail(kind, message);
        }
        return;
      }
      if (utf8(text) + logBytes > limits.outputBytes) fail('output', outputText);
      else end({ kind: 'returned', value: JSON.parse(text), json: text, logs });
    });

    const preludeFn = vm.unwrapResult(vm.evalCode(PRELUDE, 'prelude.js'));
    const args = [
      hostCall,
      hostLog,
      hostFinish,
      vm.newNumber(run.now),
      vm.newNumber(run.seed),
      vm.newString(JSON.stringify(run.toolNames)),
    ];
    const pair = vm.unwrapResult(vm.callFunction(preludeFn, vm.undefined, ...args));
    for (const handle of [preludeFn, ...args]) handle.dispose();
    const start = vm.getProp(pair, 0);
    const settle = vm.getProp(pair, 1);
    pair.dispose();
    try {
      // The body starts on line 2 of "program.js": error positions point into it.
      const compiled = vm.evalCode(`(async function (tools, console) {\n${run.program}\n})`, 'program.js');
      if (compiled.error) {
        const { kind, message } = exceptionOf(compiled.error);
        if (kind === 'thrown') fail('syntax', `the program is not valid JavaScript: ${message}`);
        else fail(kind, message);
      } else {
        const started = vm.callFunction(start, vm.undefined, compiled.value);
        compiled.value.dispose();
        if (started.error) {
          const { kind, message } = exceptionOf(started.error);
          fail(kind, message);
        } else started.value.dispose();
        pump();
      }
      while (!outcome) {
        const left = deadline - Date.now();
        if (left <= 0) {
          fail('time', timeText);
          break;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    } finally {
      start.dispose();
      settle.dispose();
    }
    return outcome as SandboxOutcome;
  } finally {
    run.signal.removeEventListener('abort', onAbort);
    if (tainted || heapOf(quickjs) > KEEP_HEAP_BELOW + 4 * limits.memoryBytes) dropModule(modulePromise);
    else
      try {
        context?.dispose();
        runtime.dispose();
      } catch {
        dropModule(modulePromise); // an engine state not foreseen: the same remedy
      }
    // Freed, or gone with its dropped module (nothing holds it once the executions on it end).
    if (!runtime.alive || tainted) open.delete(runtime);
  }
}
