// LangGraph's own conformance suite for checkpointers (@langchain/langgraph-checkpoint-validation)
// run against CtxSaver as built (dist/langgraph.js): every suite specTest runs, plus the opt-in
// getDeltaChannelHistory suite, nothing skipped; each checkpointer gets a store of its own.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deltaChannelHistoryTests, specTest, type CheckpointSaverTestInitializer } from '@langchain/langgraph-checkpoint-validation';
// @ts-expect-error the bundle is JavaScript: typed below by the sources it is built from
import * as built from '../dist/langgraph.js';
import type * as Sources from '../src/adapters/langgraph/index.js';

const { CtxSaver } = built as typeof Sources;
type CtxSaver = Sources.CtxSaver;

// the suites call vitest's functions as globals
Object.assign(globalThis, { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it });

const stores = new Map<CtxSaver, string>();
const initializer: CheckpointSaverTestInitializer<CtxSaver> = {
  checkpointerName: 'agent-ctx CtxSaver',
  async createCheckpointer() {
    const dir = mkdtempSync(join(tmpdir(), 'ctx-langgraph-'));
    const saver = await CtxSaver.open(join(dir, '.ctx'));
    stores.set(saver, dir);
    return saver;
  },
  async destroyCheckpointer(saver) {
    await saver.close();
    rmSync(stores.get(saver)!, { recursive: true, force: true });
    stores.delete(saver);
  },
};

specTest(initializer);
deltaChannelHistoryTests(initializer);
