/**
 * Bad input never changes state, whatever it is: valid requests of every route with a body,
 * mutated at random (unknown keys, `__proto__` and `constructor` keys, wrong types, huge and
 * fractional numbers, long strings, deep nesting, keys taken away), are answered 2xx or 4xx, never
 * 5xx; a refused one changes nothing; and the route's schema and the reader behind it agree: what
 * the reader takes, the schema takes too (the schema may refuse more only where the reader would).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { readOrders, type GameState } from '../../engine/src/index.js';
import { courseFromJson } from '../../boards/src/index.js';
import { readRaceRequest } from './setup.js';
import { DraftSchema, FollowSchema, MODERATOR_ACTIONS, NewRace, OrdersSchema, ReadySchema, RobotSchema } from './schemas.js';
import { validatorCompiler } from './validation.js';
import { shippedCourses } from './courses.js';
import { call, freshDb, startServer, type TestServer, createSeated } from './testing.js';
import { no, yes } from './errors.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const courses = shippedCourses();
const bodyValidator = (schema: TSchema) => validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '/' }) as unknown as (v: unknown) => boolean;

/** Every place in a JSON value where a mutation may go: the path of each object and array, and of each value. */
function places(v: Json, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...places(x, [...at, i])));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...places(x, [...at, k]));
  return out;
}

const nested = (depth: number, leaf: Json, array: boolean): Json => (depth === 0 ? leaf : array ? [nested(depth - 1, leaf, array)] : { a: nested(depth - 1, leaf, array) });

/** Values no field takes, or that some field takes in another place. */
const oddValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(2 ** 31, 2 ** 53, 1e308, -1, 1.5, -0, 0, 7, 'x', '', 'N', 'F2:670', true, false, null, [], {}, [1, 1, 1, 1, 1, 1], { prototype: {} }, 'B'.repeat(5000)),
  fc.tuple(fc.integer({ min: 2, max: 40 }), fc.boolean()).map(([d, array]) => nested(d, 1, array)),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);

type Mutation = { kind: 'add' | 'replace' | 'delete'; pick: number; key: string; value: Json };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('add', 'replace', 'delete'),
  pick: fc.nat(),
  key: fc.constantFrom('x', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'turn', '', '1', 'program '),
  value: oddValue,
});

/** `base` with the mutations applied (keys are defined as own properties, `__proto__` too). */
function mutate(base: Json, ms: readonly Mutation[]): Json {
  let root = JSON.parse(JSON.stringify(base)) as Json;
  for (const mutation of ms) {
    // A copy of the value: fast-check hands the same constants out again, and they are changed in place here.
    const m = { ...mutation, value: JSON.parse(JSON.stringify(mutation.value)) as Json };
    const all = places(root);
    const path = all[m.pick % all.length]!;
    const parent = path.slice(0, -1).reduce<Json>((o, k) => (o as Record<string | number, Json>)[k]!, root);
    const last = path[path.length - 1];
    const target = path.reduce<Json>((o, k) => (o as Record<string | number, Json>)[k]!, root);
    if (m.kind === 'add' && target !== null && typeof target === 'object' && !Array.isArray(target)) {
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    } else if (m.kind === 'add' && Array.isArray(target)) target.push(m.value);
    else if (last === undefined) root = m.value;
    else if (m.kind === 'delete' && !Array.isArray(parent)) delete (parent as Record<string, Json>)[last];
    else (parent as Record<string | number, Json>)[last] = m.value;
  }
  return root;
}

/** What a refused request must leave as it was: every race's row, seats, orders and entries. */
async function snapshot(s: TestServer): Promise<string> {
  const [races, seats, orders, events] = await Promise.all([
    s.db.selectFrom('races').select(['id', 'version', 'last_seq', 'state', 'deadline_at', 'paused_left', 'status']).orderBy('id').execute(),
    s.db.selectFrom('seats').select(['race_id', 'seat', 'kind', 'robot', 'follow']).orderBy('race_id').orderBy('seat').execute(),
    s.db.selectFrom('orders').select(['race_id', 'seat', 'turn', 'body']).orderBy('race_id').orderBy('seat').execute(),
    s.db.selectFrom('events').select(({ fn }) => fn.countAll().as('n')).executeTakeFirst(),
  ]);
  return JSON.stringify({ races, seats, orders, events });
}

test('every route with a body, sent mutated valid requests: never 5xx, a refusal changes nothing, and the schema takes what the reader takes', { timeout: 300_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db, undefined, { max: 1_000_000, windowMs: 10_000 });
  try {
    const newRace: Json = {
      course: 'first-shift', rules: 'classic', settings: { lives: 3, turnLimit: 50 },
      seats: [{ name: 'Ava', options: ['Brakes', 'Shield', 'Fire Control', 'Tractor Beam'], lives: 3, damage: 1, dir: 'N' }, { name: 'Bob', firstTimer: true, email: 'bob@b.test' }, { name: 'Bolt', bot: 'random' }],
      deadline: { kind: 'live', seconds: 3600 }, deal: { secret: false, seed: 5 }, whenNoPersonLeft: 'play',
    };
    const created = await createSeated(s.base, newRace);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const race = created.body as { id: string; moderatorKey: string; seats: { token: string }[] };
    const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, { authorization: `Bearer ${race.seats[0]!.token}` })).body;
    const orders: Json = {
      turn: 1, program: you.you.hand.slice(0, 5), powerDown: false, stayDown: false, takeOption: false, unlock: [],
      reenter: { dir: 'N', poweredDown: false }, facing: 'E',
      choices: { brakes: [1], shield: 'front', fireControl: { 2: 'damage' }, weapon: { 3: { weapon: 'Tractor Beam', if: 'falls' } }, takeOption: { ifDamageAtMost: 3 } },
    };
    const row = await s.db.selectFrom('races').selectAll().where('id', '=', race.id).executeTakeFirstOrThrow();
    const setup = s.service.setupOf(row);
    const st = JSON.parse(row.state) as GameState;
    // The readers as the service runs them, without storing anything.
    const readers: Record<string, (body: unknown) => boolean> = {
      orders: (b) => {
        const turn = (b as { turn?: unknown } | null)?.turn;
        return typeof b === 'object' && b !== null && Number.isSafeInteger(turn) && turn === st.turn && readOrders(setup, st, 0, b).ok;
      },
      races: (b) => readRaceRequest(b, (n) => courses.get(n), (json) => {
        const c = courseFromJson(json);
        return c.ok ? yes(c.value) : no(422, c.error.field, c.error.message);
      }).ok,
    };
    assert.ok(readers.orders!(orders) && readers.races!(newRace), 'the valid requests are valid');
    const seat = (n: number) => ({ authorization: `Bearer ${race.seats[n]!.token}` });
    const mod = { 'x-moderator-key': race.moderatorKey };
    const routes: { name: string; method: string; path: string; body: Json; schema: TSchema; headers: Record<string, string>; reader?: string }[] = [
      { name: 'create', method: 'POST', path: '/api/races', body: newRace, schema: NewRace, headers: {}, reader: 'races' },
      { name: 'orders', method: 'PUT', path: `/api/races/${race.id}/seats/0/orders`, body: orders, schema: OrdersSchema, headers: seat(0), reader: 'orders' },
      { name: 'ready', method: 'POST', path: `/api/races/${race.id}/seats/1/ready`, body: { turn: 1 }, schema: ReadySchema, headers: seat(1) },
      { name: 'robot', method: 'PUT', path: `/api/races/${race.id}/seats/1/robot`, body: { robot: 5 }, schema: RobotSchema, headers: seat(1) },
      { name: 'draft', method: 'PUT', path: `/api/races/${race.id}/seats/1/draft`, body: { turn: 1, filled: 2 }, schema: DraftSchema, headers: seat(1) },
      { name: 'follow', method: 'PUT', path: `/api/races/${race.id}/seats/1/follow`, body: { follow: true }, schema: FollowSchema, headers: seat(1) },
      { name: 'extend', method: 'POST', path: `/api/races/${race.id}/moderator/extend`, body: { seconds: 60 }, schema: MODERATOR_ACTIONS.extend.body, headers: mod },
      { name: 'replace', method: 'POST', path: `/api/races/${race.id}/moderator/replace`, body: { seat: 7, level: 'strong' }, schema: MODERATOR_ACTIONS.replace.body, headers: mod },
      { name: 'rewind', method: 'POST', path: `/api/races/${race.id}/moderator/rewind`, body: {}, schema: MODERATOR_ACTIONS.rewind.body, headers: mod },
    ];
    for (const r of routes) {
      const schema = bodyValidator(r.schema);
      let before = await snapshot(s);
      await fc.assert(fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (ms) => {
        const body = mutate(r.body, ms);
        const text = JSON.stringify(body) ?? 'null';
        const answer = await call(s.base, r.method, r.path, text, r.headers);
        assert.ok(answer.status < 500, `${r.name} ${text.slice(0, 300)}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
        const after = await snapshot(s);
        if (answer.status >= 400) {
          assert.equal(after, before, `${r.name} ${text.slice(0, 300)} was refused (${answer.status}) but changed the race`);
          assert.equal(typeof answer.body?.error?.field, 'string', `${r.name}: a refusal names a field`);
        }
        before = after;
        if (r.reader) {
          // The body as the reader sees it: parsed JSON, with `__proto__` an own key like any.
          const parsed: unknown = JSON.parse(text);
          if (readers[r.reader]!(parsed)) assert.ok(schema(parsed), `${r.name}: the reader takes ${text.slice(0, 300)}, the schema does not`);
        }
      }), { numRuns: 120, seed: 20261128 });
      if (r.reader) {
        // The readers alone, without HTTP, over many more mutations: what the reader takes, the schema takes.
        const reader = readers[r.reader]!;
        fc.assert(fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (ms) => {
          const text = JSON.stringify(mutate(r.body, ms)) ?? 'null';
          const parsed: unknown = JSON.parse(text);
          if (reader(parsed)) assert.ok(schema(parsed), `${r.name}: the reader takes ${text.slice(0, 300)}, the schema does not`);
        }), { numRuns: 5000, seed: 20261128 });
      }
    }
  } finally {
    await s.close();
    await db.destroy();
  }
});

test('a body with a "__proto__" or "constructor.prototype" key is refused 422 naming the key\'s path, not as JSON that does not parse', async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bob' }] })).body;
    const put = (text: string) => call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, text, { authorization: `Bearer ${race.seats[0].token}` });
    for (const [text, field] of [
      ['{"turn": 1, "__proto__": {"x": 1}}', '__proto__'],
      ['{"turn": 1, "choices": {"__proto__": {}}}', 'choices.__proto__'],
      ['{"turn": 1, "program": [null, {"constructor": {"prototype": {}}}]}', 'program[1].constructor'],
    ] as const) {
      const r = await put(text);
      assert.deepEqual([r.status, r.body.error.field], [422, field], text);
      assert.match(r.body.error.message, /__proto__/);
    }
    const created = await createSeated(s.base, '{"course": "first-shift", "seats": [{"name": "Ava", "__proto__": {"bot": "expert"}}]}');
    assert.deepEqual([created.status, created.body.error.field], [422, 'seats[0].__proto__']);
    // JSON that does not parse is still told so.
    const broken = await put('{"turn": 1,');
    assert.deepEqual([broken.status, broken.body.error.field], [400, 'body']);
  } finally {
    await s.close();
    await db.destroy();
  }
});
