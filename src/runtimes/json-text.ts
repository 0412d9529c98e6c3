// A settings.json edited as text with jsonc-parser: only ctx's entries change, so numbers such as
// 12345678901234567890 or 1e400, comments, key order and layout stay exactly as the user wrote them.
import { applyEdits, findNodeAtLocation, format, getNodeValue, modify, parseTree, printParseErrorCode, type FormattingOptions, type JSONPath, type Node, type ParseError } from 'jsonc-parser';
import { BadInputError } from '../errors/index.js';

export interface JsonText {
  text: string;
  root: Node | undefined;
  /** the value, numbers as JavaScript reads them: for reading ctx's entries, never for writing */
  value: unknown;
}

/** Parses `text` as JSON, or as JSON with comments (and trailing commas) when the runtime reads it so (Gemini CLI strips comments; opencode takes both). */
export function parseJsonText(path: string, text: string, comments: boolean, trailingCommas = false): JsonText {
  if (text.trim() === '') return { text, root: undefined, value: {} };
  if (!comments) {
    try {
      JSON.parse(text); // the runtime's own parser decides, and says why in its words
    } catch (e) {
      throw new BadInputError(`${path} is not JSON (${(e as Error).message}); nothing changed`);
    }
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: !comments, allowTrailingComma: trailingCommas, allowEmptyContent: false });
  if (errors.length || !root) {
    const at = errors[0]?.offset ?? 0;
    const line = text.slice(0, at).split('\n').length;
    const column = at - text.lastIndexOf('\n', at - 1);
    throw new BadInputError(`${path} is not JSON (${errors[0] ? printParseErrorCode(errors[0].error) : 'empty'} at line ${line} column ${column}); nothing changed`);
  }
  const dup = duplicateKey(root);
  if (dup) throw new BadInputError(`${path}: "${dup}" appears twice in one object; nothing changed`);
  return { text, root, value: getNodeValue(root) };
}

/** A key given twice in one object: JSON.parse keeps the last, an edit in place would touch the first. */
function duplicateKey(node: Node): string | null {
  if (node.type === 'object') {
    const seen = new Set<string>();
    for (const p of node.children ?? []) {
      const key = p.children?.[0]?.value as string;
      if (seen.has(key)) return key;
      seen.add(key);
    }
  }
  for (const c of node.children ?? []) {
    const dup = duplicateKey(c);
    if (dup) return dup;
  }
  return null;
}

/**
 * How to lay out what ctx inserts: in the indentation the file already uses (its first indented
 * line), two spaces when it has none; null for a file on one line, which stays on one line.
 */
export function layoutOf(text: string): FormattingOptions | null {
  if (!text.trim().includes('\n')) return null;
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t') ? { tabSize: 1, insertSpaces: false, eol } : { tabSize: indent.length, insertSpaces: true, eol };
}

/**
 * Sets `path` (with `append`: appends to the array at `path`); only the inserted value is laid out,
 * the bytes around it are not reformatted.
 */
export function setJson(text: string, path: JSONPath, value: unknown, opts: { append?: boolean; layout: FormattingOptions | null }): string {
  // into an empty `{}` or `[]`: lay out the container anew rather than leave its braces on one line
  const parentPath = opts.append ? path : path.slice(0, -1);
  const parent = parentPath.length ? findNodeAtLocation(parseTree(text)!, parentPath) : undefined;
  if (opts.layout && parent && /^[{[]\s*[}\]]$/.test(text.slice(parent.offset, parent.offset + parent.length))) {
    return setJson(text, parentPath, opts.append ? [value] : { [path[path.length - 1]]: value }, { layout: opts.layout });
  }
  const edits = modify(text, opts.append ? [...path, -1] : path, value, {});
  let out = applyEdits(text, edits);
  if (!opts.layout) return out;
  for (const e of [...edits].reverse()) {
    const from = e.offset;
    const to = e.offset + e.content.length;
    const layout = format(out, { offset: from, length: to - from }, opts.layout).filter((f) => f.offset >= from && f.offset + f.length <= to);
    out = applyEdits(out, layout);
  }
  return out;
}

export function removeJson(text: string, path: JSONPath): string {
  return applyEdits(text, modify(text, path, undefined, {}));
}

/** Whether two documents hold the same value, numbers compared as written (so 1.0 is not 1). */
export function sameJson(a: JsonText, b: JsonText): boolean {
  const same = (x: Node | undefined, y: Node | undefined): boolean => {
    if (!x || !y) return x === y;
    if (x.type !== y.type) return false;
    if (x.type === 'number') return a.text.slice(x.offset, x.offset + x.length) === b.text.slice(y.offset, y.offset + y.length);
    if (x.type === 'array') return x.children!.length === y.children!.length && x.children!.every((c, i) => same(c, y.children![i]));
    if (x.type === 'object') {
      const props = (n: Node) => new Map((n.children ?? []).map((p) => [p.children![0].value as string, p.children![1]]));
      const [px, py] = [props(x), props(y)];
      return px.size === py.size && [...px].every(([k, v]) => py.has(k) && same(v, py.get(k)));
    }
    return x.value === y.value;
  };
  if (!a.root || !b.root) return JSON.stringify(a.value) === JSON.stringify(b.value);
  return same(a.root, b.root);
}

/** Whether the text is an object with nothing in it: no keys, no comments. */
export function isEmptyObjectText(text: string): boolean {
  return text.replace(/\s/g, '') === '{}' || text.trim() === '';
}
