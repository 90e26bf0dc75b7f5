export { serveStudio } from './serve-studio.js';
export type { StudioOptions, StudioHandle } from './serve-studio.js';
export type { StudioRunners } from './actions/studio-actions.js';
export { StudioError } from './errors.js';
export type { StudioErrorKind } from './errors.js';
