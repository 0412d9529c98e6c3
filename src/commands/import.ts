import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { checkImport, importDirectory, importSession, type FileImport } from '../api/capture/sessions.js';
import type { ImportResult } from '../api/capture/runtime.js';
import { shortId } from '../core/ids.js';
import { CtxError } from '../errors/index.js';
import { importFileErrorJson, importFileJson, importJson } from '../output/records.js';
import { tsvLine } from '../output/style.js';
import { defineCommand } from './command.js';
import { METADATA_OPTIONS, metadataFields, type MetadataFlags } from './metadata-flags.js';
import { runtimeNames } from './runtime-names.js';

export default defineCommand({
  name: 'import',
  summary: 'a real transcript into a chain, split at turn boundaries (an older Gemini CLI chat: a snapshot per save); again later: only what is new',
  args: [
    { name: 'runtime', description: `the runtime that wrote it: ${runtimeNames().join(', ')}, or NAME of an executable ctx-runtime-NAME on PATH (docs/runtime-protocol.md)`, required: true, values: 'runtime:import' },
    { name: 'file', description: 'transcript file (Claude Code session .jsonl, Codex rollout .jsonl, Gemini CLI session .jsonl or chat .json, Copilot CLI events.jsonl), or a directory: every session file in it, recursively', required: true, values: 'file' },
  ],
  options: [
    { flags: '-b, --branch <name>', description: "branch (default: the runtime's own for the session, e.g. claude/<session id>); a later save of a saved chat adds to an existing one", values: 'branch' },
    ...METADATA_OPTIONS,
  ],
  examples: [
    'ctx import claude-code ~/.claude/projects/my-project/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83.jsonl -b alice/auth-fix',
    'ctx import codex ~/.codex/sessions/2025/11/17/rollout-2025-11-17T15-30-28-session.jsonl',
    'ctx import gemini-cli ~/.gemini/tmp/my-project/chats/session-2026-01-10T09-00-aaaa1111.jsonl --json',
    'ctx import pi ~/.pi/agent/sessions/--home-alice-my-project--/2026-01-10T09-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl',
    'ctx import codex ~/.codex/sessions    # a directory: every session in it; again later: only what is new',
    'ctx import copilot ~/.copilot/session-state    # the events.jsonl of every session folder (or one folder, or one file)',
    'ctx import claude-code ~/.claude/projects/-home-alice-my-project --json',
    'opencode export ses_de246ed09ffeF1W7a6XGWmTOvp > s.json && ctx import opencode s.json    # an opencode session: branch opencode/<its id>',
  ],
  async run(io, [runtime, file]: [string, string], flags: MetadataFlags & { branch?: string }): Promise<Imported> {
    // before the store is opened: a refused import makes no store
    await checkImport(runtime, file, flags.branch);
    if (isDirectory(file)) {
      const bar = io.progress(`importing ${basename(file)}`, '');
      try {
        const files = await io.withRepo(true, (repo) => importDirectory(repo, runtime, file, { branch: flags.branch, fields: metadataFields(flags) }, (_, n, total) => bar.update(n, total)));
        if (files.length === 0) io.note(`${file}: no session file in it`);
        return { files };
      } finally {
        bar.done();
      }
    }
    const bar = io.progress(`importing ${basename(file)}`, 'commits');
    let result;
    try {
      result = await io.withRepo(true, (repo) => importSession(repo, runtime, file, { branch: flags.branch, fields: metadataFields(flags), onProgress: (n, total) => bar.update(n, total) }));
    } finally {
      bar.done();
    }
    for (const w of result.commits.flatMap((c) => c.warnings ?? [])) io.note(w);
    if (result.unchanged) io.note(`${result.branch} already holds this chat: nothing written`);
    return { one: { ...result, tip: tipOf(result) } };
  },
  print(io, { one, files }) {
    if (one) {
      if (io.flags.json) return io.json(importJson(one, one.tip));
      return io.out(tsvLine([one.branch, shortId(one.tip), `${one.commits.length} commits`]));
    }
    for (const { file, result: r, error } of files!) {
      if (io.flags.json) io.json(r ? importFileJson(file, r, tipOf(r)) : importFileErrorJson(file, error!));
      else if (error) io.note(`${file}: ${error.message}`);
      else {
        for (const w of r!.commits.flatMap((c) => c.warnings ?? [])) io.note(`${file}: ${w}`);
        io.out(tsvLine([file, r!.branch, shortId(tipOf(r!)), r!.unchanged ? 'unchanged' : `${r!.commits.length} commits`]));
      }
    }
  },
  failure({ files }) {
    const failed = files?.filter((f) => f.error) ?? [];
    return failed.length ? new CtxError(`${failed.length} of ${files!.length} files not imported`) : undefined;
  },
});

interface Imported {
  one?: ImportResult & { tip: string };
  files?: FileImport[];
}

const tipOf = (r: ImportResult) => (r.commits.length ? r.commits[r.commits.length - 1].oid : r.tip!);

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
