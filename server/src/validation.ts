/**
 * How the route schemas (schemas.ts) check requests: two Ajv instances, one that reads the path and
 * query (text, so numbers are read from it) and one that takes a body exactly as sent (no type is
 * coerced, no unknown key removed, no default filled in); a refusal names the field's path
 * (`seats[0].name`, `seat`, `after`) as the readers do. JSON bodies are parsed only up to a depth.
 */
import { isUtf8 } from 'node:buffer';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { jsonTextError, notUtf8 } from '../../boards/src/index.js';

/** How deep a JSON body may nest: a course file is the deepest thing sent, at 6 levels. */
export const MAX_JSON_DEPTH = 32;

const base = { allErrors: false, removeAdditional: false, useDefaults: false, verbose: true, strict: false, discriminator: true } as const;
const bodies = new Ajv({ ...base, coerceTypes: false });
const text = new Ajv({ ...base, coerceTypes: true });

/** A whole number as a path or query writes it: digits, no sign, no exponent, no hex, no spaces. */
const DIGITS = /^[0-9]+$/;

/**
 * A path's or query's validator: Ajv's coercion reads `1e3`, `+1`, `0x10` and ` 1` as numbers, so an
 * integer field is first held to plain digits (refused as Ajv refuses a wrong type, with its field).
 */
function textValidator(schema: object): ValidateFunction {
  const check = text.compile(schema);
  const props = (schema as { properties?: Record<string, { type?: string }> }).properties ?? {};
  const integers = Object.keys(props).filter((k) => props[k]!.type === 'integer');
  if (!integers.length) return check;
  const strict = ((data: unknown) => {
    const bad = integers.find((k) => typeof (data as Record<string, unknown> | null)?.[k] === 'string' && !DIGITS.test((data as Record<string, string>)[k]!));
    if (bad === undefined) {
      const ok = check(data);
      strict.errors = check.errors;
      return ok;
    }
    strict.errors = [{ keyword: 'type', instancePath: `/${bad}`, schemaPath: `#/properties/${bad}/type`, params: { type: 'integer' }, parentSchema: props[bad], message: 'must be integer' }];
    return false;
  }) as ValidateFunction;
  return strict;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodies.compile(schema) : textValidator(schema)) as ValidateFunction;

/** `/seats/0/name` → `seats[0].name`. */
function fieldPath(pointer: string, last?: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (last !== undefined) parts.push(last);
  return parts.reduce((path, p) => (/^\d+$/.test(p) ? `${path}[${p}]` : path ? `${path}.${p}` : p), '');
}

const depth = (e: ErrorObject) => (e.instancePath.match(/\//g)?.length ?? 0) + (e.keyword === 'required' || e.keyword === 'additionalProperties' || e.keyword === 'propertyNames' ? 1 : 0);
/** Errors of a union's branches say less than one that went deeper: the deepest wins, a const or enum last. */
const weak = (e: ErrorObject) => (e.keyword === 'anyOf' || e.keyword === 'oneOf' ? 2 : e.keyword === 'const' || e.keyword === 'enum' || e.keyword === 'type' ? 1 : 0);

function allowed(e: ErrorObject): string | null {
  const s = e.parentSchema as { anyOf?: { const?: unknown }[]; enum?: unknown[] } | undefined;
  const values = s?.enum ?? (s?.anyOf?.every((b) => 'const' in b) ? s.anyOf.map((b) => b.const) : null);
  return values ? values.map((v) => JSON.stringify(v)).join(', ') : null;
}

/** What a schema's refusal says: the field's path and what was expected there. */
export function describeSchemaError(errors: readonly ErrorObject[], part: string): { field: string; message: string } {
  const e = [...errors].sort((a, b) => depth(b) - depth(a) || weak(a) - weak(b))[0]!;
  const p = e.params as Record<string, unknown>;
  const s = e.parentSchema as { minimum?: number; maximum?: number; properties?: object; description?: string; type?: string } | undefined;
  const root = part === 'body' ? 'body' : part === 'querystring' ? 'query' : part === 'headers' ? 'headers' : 'path';
  const at = (last?: string) => fieldPath(e.instancePath, last) || root;
  switch (e.keyword) {
    case 'additionalProperties':
      return { field: at(String(p.additionalProperty)), message: `unknown field (expected one of ${Object.keys(s?.properties ?? {}).join(', ') || 'none'})` };
    case 'propertyNames': {
      const names = e.schema as { enum?: string[]; pattern?: string };
      return { field: at(String(p.propertyName)), message: names.enum ? `unknown key (expected one of ${names.enum.join(', ')})` : `unknown key (expected a key matching ${names.pattern})` };
    }
    case 'required':
      return { field: at(String(p.missingProperty)), message: 'missing' };
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum': case 'type':
      if (s?.type === 'integer' || s?.type === 'number') {
        const what = s.type === 'integer' ? 'a whole number' : 'a number';
        return { field: at(), message: `expected ${what} from ${s.minimum} to ${s.maximum}${s.description ? ` (${s.description})` : ''}` };
      }
      break;
    case 'pattern': case 'minLength': case 'maxLength': case 'format':
      if (s?.description) return { field: at(), message: `expected ${s.description}${e.keyword === 'maxLength' ? ` (at most ${(s as { maxLength?: number }).maxLength} characters)` : ''}` };
      break;
    case 'discriminator':
      return { field: at(String(p.tag)), message: `expected one of ${((s as { oneOf?: { properties: Record<string, { const: string }> }[] }).oneOf ?? []).map((b) => JSON.stringify(b.properties[String(p.tag)]?.const)).join(', ')}` };
    case 'minItems': case 'maxItems': {
      const a = s as { minItems?: number; maxItems?: number };
      return { field: at(), message: `expected ${a.minItems ?? 0} to ${a.maxItems ?? 'any number of'} entries${s?.description ? ` (${s.description})` : ''}` };
    }
    case 'anyOf': case 'enum': case 'const': {
      const values = allowed(e);
      if (values) return { field: at(), message: `expected one of ${values}` };
      break;
    }
  }
  return { field: at(), message: `${e.message ?? 'not as expected'}${s?.description ? ` (${s.description})` : ''}` };
}

/** The nesting depth of a JSON text ([ and { outside strings), stopping once past `most`. */
export function jsonDepth(text: string, most: number): number {
  let d = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++d > deepest && (deepest = d) > most) return deepest;
    } else if (c === 93 || c === 125) d--;
  }
  return deepest;
}

/**
 * Where a parsed JSON value holds a key that could reach an object's prototype (`__proto__`, or
 * `constructor` holding `prototype`), as a field path (`choices.__proto__`); null if none does.
 */
export function prototypeKey(v: unknown, path = ''): string | null {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const deeper = prototypeKey(v[i], `${path}[${i}]`);
      if (deeper) return deeper;
    }
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  for (const [key, x] of Object.entries(v)) {
    const at = path ? `${path}.${key}` : key;
    if (key === '__proto__' || (key === 'constructor' && typeof x === 'object' && x !== null && Object.hasOwn(x, 'prototype'))) return at;
    const deeper = prototypeKey(x, at);
    if (deeper) return deeper;
  }
  return null;
}

/**
 * JSON bodies: fastify's own parser (which refuses __proto__ and constructor keys), after a depth
 * check; a body refused for such a key is answered 422 naming it, not as JSON that does not parse.
 * A key written twice in one object is refused 422 (`body`, naming its line and column); a body
 * sent with a Content-Encoding (gzip, …) 415 (`content-encoding`); bytes that are no UTF-8 400
 * (`body`, naming the line and column of the first), where they were read as U+FFFD in silence.
 */
export function boundJsonDepth(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, bytes, done) => {
    // A compressed body would be read as text and refused as JSON that does not parse, which
    // misleads: no coding is taken (a request's body is small), so it is refused 415 by its name.
    const coding = req.headers['content-encoding']?.trim().toLowerCase();
    if (coding && coding !== 'identity') {
      const e = Object.assign(new Error(`the body is sent with Content-Encoding ${JSON.stringify(coding.slice(0, 40))}; no coding is accepted: send the JSON as it is, without Content-Encoding`), { statusCode: 415, field: 'content-encoding' });
      return done(e, undefined);
    }
    const body = (bytes as Buffer).toString('utf8');
    if (!isUtf8(bytes as Buffer)) {
      const bad = notUtf8(bytes as Buffer, body);
      return done(Object.assign(new Error(`line ${bad.line}, column ${bad.column}: ${bad.message}`), { statusCode: 400, field: 'body' }), undefined);
    }
    if (jsonDepth(body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      const e = Object.assign(new Error(`the body nests deeper than ${MAX_JSON_DEPTH} levels`), { statusCode: 422, field: 'body' });
      return done(e, undefined);
    }
    return parse(req, body, (error, value) => {
      if (error) {
        let plain: unknown;
        try {
          plain = JSON.parse(body);
        } catch {
          return done(error, undefined);
        }
        const at = prototypeKey(plain);
        if (at) return done(Object.assign(new Error('a key "__proto__", or "constructor" holding "prototype", is refused: no field has that name, and it could reach an object\'s prototype'), { statusCode: 422, field: at }), undefined);
        return done(error, undefined);
      }
      // A key written twice in one object: JSON.parse keeps the last in silence (orders with two
      // "program"s played the second); refused as the project's one JSON reader refuses it.
      const twice = jsonTextError(body, MAX_JSON_DEPTH + 1);
      if (twice) return done(Object.assign(new Error(`line ${twice.line}, column ${twice.column}: ${twice.message}`), { statusCode: 422, field: 'body' }), undefined);
      return done(null, value);
    });
  });
}
