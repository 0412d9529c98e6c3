// ctx's own version, replaced at build time from package.json.
declare const __CTX_VERSION__: string;
export const VERSION: string = typeof __CTX_VERSION__ === 'string' ? __CTX_VERSION__ : '0.0.0-dev';
