// The options every command takes (before or after its name), declared once for the program and completion.
import type { OptionDecl } from './command.js';

export const GLOBAL_OPTIONS: readonly OptionDecl[] = [
  { flags: '--store <path>', description: 'context repo (default: $CTX_STORE, else the nearest .ctx/ upward, else ./.ctx)', values: 'file' },
  { flags: '--json', description: 'JSON output (one document, or JSON Lines for lists), every record with "v":1' },
  { flags: '--color <when>', description: 'colour output', choices: ['auto', 'always', 'never'], default: 'auto' },
  { flags: '--engine <name>', description: 'object engine (default: $CTX_ENGINE, ctx.engine, auto)', choices: ['auto', 'git', 'isogit'] },
];
