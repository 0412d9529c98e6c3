// The tools of `ctx mcp`, in the order tools/list shows them (docs/mcp.md and test/mcp.test.ts pin
// it): the read tools, then the write tools (listed only with --write).
import type { ToolDef } from './tool.js';
import { fork, restore, save } from './branching.js';
import { current } from './current.js';
import { files } from './files.js';
import { logTool, show } from './history.js';
import { news, newsSeen } from './news.js';
import { read } from './read.js';
import { search } from './search.js';
import { stateGet, stateSet } from './state.js';

export const TOOLS = [search, files, logTool, show, read, current, news, stateGet, newsSeen, stateSet, fork, save, restore] as unknown as readonly ToolDef[];
