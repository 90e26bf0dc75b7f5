// @replan/memory (design §23). Filled in by issue 36.
export {};
