// ctx's version (core/version.ts, replaced at build time from package.json).
export { VERSION } from '../core/version.js';
