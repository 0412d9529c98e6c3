// agent-ctx/langgraph: a LangGraph checkpointer over a ctx store (docs/langgraph.md).
export { CtxSaver, type CtxSaverOptions } from './saver.js';
export { escapeId, lineBranch, parseLineBranch } from './names.js';
