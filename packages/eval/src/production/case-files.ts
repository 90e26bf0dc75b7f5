import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentEvent, ReplayError } from '@replan/core';
import { checkRecording } from '@replan/core/testing';
import { z } from 'zod';
import { EvalInputError } from '../errors.js';
import type { EvalCase } from '../set/eval-case.js';
import type { SessionEvalCase } from './session-to-eval-case.js';

/** The version of the case and recording files; files of another version are refused. */
export const EVAL_FILE_SCHEMA_VERSION = 1;

const caseFile = z.object({
  schemaVersion: z.literal(EVAL_FILE_SCHEMA_VERSION),
  kind: z.literal('replan-eval-case'),
  case: z.looseObject({ name: z.string(), input: z.unknown(), expect: z.looseObject({}) }),
});

const recordingFile = z.object({
  schemaVersion: z.literal(EVAL_FILE_SCHEMA_VERSION),
  kind: z.literal('replan-recording'),
  sessionId: z.string(),
  events: z.array(z.looseObject({ id: z.string(), invocationId: z.string(), author: z.string(), path: z.string(), timestamp: z.number() })),
});

/** A name safe as a file name: letters, digits, `.`, `_` and `-`. */
export function caseFileStem(name: string): string {
  const stem = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  return stem.slice(0, 120) || 'case';
}

/**
 * Writes `<dir>/<stem>.case.json` (the case) and `<dir>/<stem>.recording.json` (the session's
 * events); `stem` is the case name made safe for a file name. Returns both paths.
 */
export async function writeEvalCaseFiles(
  dir: string,
  { evalCase, recording }: SessionEvalCase,
  sessionId: string,
): Promise<{ casePath: string; recordingPath: string }> {
  await mkdir(dir, { recursive: true });
  const stem = caseFileStem(evalCase.name);
  const casePath = join(dir, `${stem}.case.json`);
  const recordingPath = join(dir, `${stem}.recording.json`);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(casePath, json({ schemaVersion: EVAL_FILE_SCHEMA_VERSION, kind: 'replan-eval-case', case: evalCase }));
  await writeFile(recordingPath, json({ schemaVersion: EVAL_FILE_SCHEMA_VERSION, kind: 'replan-recording', sessionId, events: recording }));
  return { casePath, recordingPath };
}

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EvalInputError('file', `Cannot read the ${what} ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EvalInputError(
      'file',
      `The ${what} ${path} is not JSON (${(error as Error).message}); write it again with replan eval --from-session.`,
    );
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown, path: string, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ');
  throw new EvalInputError(
    'file',
    `${path} is not a ${what} of schema version ${EVAL_FILE_SCHEMA_VERSION} (${issues}); write it again with replan eval --from-session.`,
  );
}

/** Reads a `.case.json` written by `replan eval --from-session` (or `writeEvalCaseFiles`); an `EvalInputError` of kind `file` when it is not one. */
export async function readEvalCaseFile(path: string): Promise<EvalCase> {
  return checked(caseFile, await readJson(path, 'eval case file'), path, 'replan eval case file').case as unknown as EvalCase;
}

/** Reads a `.recording.json`: the session's events, for `ReplayModel.fromSession(events)`; an `EvalInputError` of kind `file` when it is not one. */
export async function readRecordingFile(path: string): Promise<AgentEvent[]> {
  const { events } = checked(recordingFile, await readJson(path, 'recording'), path, 'replan recording');
  // Each event as a replay will read it, so a damaged one is named here, not met deep inside a run.
  try {
    checkRecording(events as unknown as AgentEvent[]);
  } catch (error) {
    if (!(error instanceof ReplayError && error.kind === 'recording')) throw error;
    throw new EvalInputError('file', `${path}: ${error.message}`, [], { cause: error });
  }
  return events as unknown as AgentEvent[];
}
