// The tools of `ctx mcp`, in the order tools/list shows them (docs/mcp.md and test/mcp.test.ts pin it).
import type { ToolDef } from './tool.js';
import { current } from './current.js';
import { files } from './files.js';

export const TOOLS = [files, current] as unknown as readonly ToolDef[];
