// @replan/code: codeTool (design §22). Filled in by issue 35.
export {};
