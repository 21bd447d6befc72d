/**
 * The one reader of JSON text, for every reader of outside JSON (the files of json-file.ts, the
 * server's request bodies, the web course editor's import): nesting past a bound and an object with
 * a key written twice (JSON.parse would keep the last in silence) are refused, and an error names the
 * line and column. No I/O: the web client imports it too (the package's `./json` entry).
 */
import { err, ok, type Result } from '../../engine/src/index.js';

/** The deepest nesting of objects and lists read; the project's files go 5 deep. */
export const MAX_JSON_DEPTH = 64;

/** Line and column (both from 1) of a position in a text. */
export function lineColumn(text: string, pos: number): { line: number; column: number } {
  let line = 1, start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) (line++, (start = i + 1));
  return { line, column: pos - start + 1 };
}

/** The first syntax error of a JSON text (RFC 8259), or null; nesting past the bound and a key twice in one object count as one. */
export function jsonSyntaxError(text: string, maxDepth = MAX_JSON_DEPTH): { pos: number; message: string } | null {
  let i = 0;
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const shown = () => (i >= text.length ? 'the end of the file' : JSON.stringify(text[i]));
  class Fail {
    constructor(readonly pos: number, readonly message: string) {}
  }
  const fail = (message: string, pos = i): never => {
    throw new Fail(pos, message);
  };
  const string = () => {
    const open = i++;
    for (;;) {
      if (i >= text.length) fail('unterminated string (no closing ")', open);
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail('a control character (such as a line break) inside a string; expected it escaped (\\n)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('expected four hex digits after \\u');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(`unknown escape \\${e ?? ''} in a string; expected one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`);
      } else i++;
    }
  };
  const value = (depth: number): void => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth >= maxDepth) fail(`nested deeper than ${maxDepth} levels of objects and lists`);
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      // Where each key of an object is first written: JSON.parse keeps the last of a key written twice, in silence.
      const keys = c === '{' ? new Map<string, number>() : null;
      for (;;) {
        if (keys) {
          if (text[i] !== '"') fail(`expected a property name in double quotes, found ${shown()}`);
          const at = i;
          string();
          const key = JSON.parse(text.slice(at, i)) as string;
          const first = keys.get(key);
          if (first !== undefined) fail(`the key ${JSON.stringify(key)} a second time in one object (first at line ${lineColumn(text, first).line}, column ${lineColumn(text, first).column}); expected each key once`, at);
          keys.set(key, at);
          ws();
          if (text[i] !== ':') fail(`expected ':' after the property name, found ${shown()}`);
          i++;
        }
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          continue;
        }
        if (text[i] === close) return void i++;
        fail(`expected ',' or '${close}' after ${c === '{' ? 'a property' : 'an element'}, found ${shown()}`);
      }
    }
    if (c === '"') return string();
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return void (i = NUMBER.lastIndex);
    fail(`expected a value (an object, a list, a string, a number, true, false or null), found ${shown()}`);
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail(`expected the end of the file after the JSON value, found ${shown()}`);
    return null;
  } catch (e) {
    if (e instanceof Fail) return { pos: e.pos, message: e.message };
    throw e;
  }
}

/** JSON text without its leading byte-order mark, if it has one. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** What is wrong with JSON text (a leading byte-order mark skipped), at its line and column; null: it is JSON. */
export function jsonTextError(text: string, maxDepth = MAX_JSON_DEPTH): { line: number; column: number; message: string } | null {
  const body = withoutBom(text);
  const bad = jsonSyntaxError(body, maxDepth);
  return bad && { ...lineColumn(body, bad.pos), message: bad.message };
}

/** Parses JSON text; an error names `name:line:column`. A leading byte-order mark is skipped. */
export function parseJson(text: string, name: string): Result<unknown> {
  const bad = jsonTextError(text);
  if (bad) return err(`${name}:${bad.line}:${bad.column}`, `not JSON: ${bad.message}`);
  return ok(JSON.parse(withoutBom(text)) as unknown);
}

