// What `ctx hook claude-code` needs, apart from the rest of the runtimes: the hook runs on every
// turn of an agent, so its chunk holds only the capture code.
export { captureSession, checkHookInput, triggerFor, type HookInput } from '../runtimes/claude-code/hook.js';
export { lockSession } from '../runtimes/claude-code/hook-state.js';
