/**
 * Where a kill fell inside a parallel wave, read from the killed process's markers (see
 * child/markers.mjs and child/marked-store.mjs): which graph steps were running, which tool calls
 * were running and which had their result stored.
 */
export interface WaveAtKill {
  /** Steps whose executor model was called and whose result was not stored yet. */
  readonly runningSteps: readonly string[];
  /** Tool calls started whose result was not stored yet. */
  readonly runningTools: readonly string[];
  /** Tool calls whose result was stored. */
  readonly storedTools: readonly string[];
}

/** The step of a graph tool call id (`<step>-t<turn>c<n>`). */
export const stepOfCall = (callId: string): string => callId.split('-t')[0] ?? callId;

export function waveAtKill(markers: readonly string[]): WaveAtKill {
  const steps = new Set<string>();
  const tools = new Set<string>();
  const stored = new Set<string>();
  for (const label of markers) {
    const model = /^model:executor (\S+)$/.exec(label);
    if (model) steps.add(model[1] as string);
    const result = /^store:append:after executor\[(\w+)\]:step-result$/.exec(label);
    if (result) steps.delete(result[1] as string);
    const tool = /^tool:record:start (\S+)$/.exec(label);
    if (tool) tools.add(tool[1] as string);
    const toolResult = /^store:append:after executor\[\w+\]:tool-result (\S+)$/.exec(label);
    for (const id of toolResult?.[1]?.split(',') ?? []) {
      tools.delete(id);
      stored.add(id);
    }
  }
  return { runningSteps: [...steps], runningTools: [...tools], storedTools: [...stored] };
}

/** Two or more steps were running at the kill. */
export const midWave = (w: WaveAtKill): boolean => w.runningSteps.length >= 2;

/**
 * One step's tool call had its result stored while a sibling step (also running) had a tool call
 * running: the kill cut a wave between a finished tool and a running one.
 */
export const betweenSiblingTools = (w: WaveAtKill): boolean =>
  w.runningTools.some((running) =>
    w.storedTools.some((done) => stepOfCall(done) !== stepOfCall(running) && w.runningSteps.includes(stepOfCall(done))),
  );
