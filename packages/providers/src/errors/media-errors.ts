/** Core's: `aiSdkModel` refuses the same way (one class to catch, whichever model refused). */
export { UnsupportedMediaError } from '@replan/core';
