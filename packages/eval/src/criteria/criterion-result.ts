/** The criteria a run can be judged by: one per eval-case expectation, and `state` (the database) and `facts` (the answer) for suite tasks. */
export type CriterionName = 'trajectory' | 'plan' | 'answer' | 'status' | 'cost' | 'latency' | 'state' | 'facts';

/** How one run did on one criterion. */
export interface CriterionResult {
  readonly criterion: CriterionName;
  /** 0..1: how close the run came (1 = fully met). */
  readonly score: number;
  readonly pass: boolean;
  /** Why, in a sentence: what was expected and what the run did. */
  readonly reason: string;
}

export const passed = (criterion: CriterionName, reason: string, score = 1): CriterionResult => ({ criterion, score, pass: true, reason });
export const failed = (criterion: CriterionName, reason: string, score = 0): CriterionResult => ({ criterion, score, pass: false, reason });
