// Every runtime's resume driver: the resume matrix runs each ordered pair of them. One import and one
// entry per runtime.
import type { ResumeDriver } from './driver.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { geminiCli } from './gemini-cli.js';
import { pi } from './pi.js';
import { opencode } from './opencode.js';

export const DRIVERS: ResumeDriver[] = [
  claudeCode,
  codex,
  geminiCli,
  pi,
  opencode,
  copilot,
];
