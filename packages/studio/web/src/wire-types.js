/**
 * The JSON the studio's server sends its page. Shared by the server (`src/`) and the page
 * (`web/src/`): types only, nothing at run time.
 */
export {};
//# sourceMappingURL=wire-types.js.map