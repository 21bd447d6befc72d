import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, freshDb, startServer } from './testing.js';

test('the server serves the web client: pages, modules with their content types, and nothing outside its folders', async () => {
  const s = await startServer((await freshDb('sqlite')).db);
  try {
    const get = (url: string) => s.app.inject({ method: 'GET', url });
    const home = await get('/');
    assert.equal(home.statusCode, 200);
    assert.match(String(home.headers['content-type']), /^text\/html/);
    assert.match(home.body, /\/js\/web\/src\/home\.js/);
    const page = await get('/race/abc?seat=0&token=x');
    assert.match(page.body, /\/js\/web\/src\/race\.js/);
    for (const path of ['/js/web/src/race.js', '/js/render/src/render.js', '/js/engine/src/index.js', '/js/engine/src/report/table.js']) {
      const r = await get(path);
      assert.equal(r.statusCode, 200, path);
      assert.match(String(r.headers['content-type']), /^text\/javascript/, path);
    }
    assert.match(String((await get('/static/app.css')).headers['content-type']), /^text\/css/);
    for (const path of ['/js/web/src/../../server/src/races.js', '/js/..%2f..%2fpackage.json', '/js/server/src/races.js', '/js/web/src/api.js.map', '/js/engine/src/cards.test.js', '/static/..%2f..%2fpackage.json', '/static/index.html'])
      assert.equal((await get(path)).statusCode, 404, path);
    // The API's own description moved from / to /api.
    assert.equal((await call(s.base, 'GET', '/api')).body.courses, '/api/courses');
  } finally {
    await s.close();
  }
});

test('static files do not count against the rate limit; API calls still do', async () => {
  const s = await startServer((await freshDb('sqlite')).db, undefined, { max: 3, windowMs: 60_000 });
  try {
    for (let k = 0; k < 10; k++) assert.equal((await s.app.inject({ method: 'GET', url: '/js/web/src/api.js' })).statusCode, 200);
    const codes = [];
    for (let k = 0; k < 5; k++) codes.push((await s.app.inject({ method: 'GET', url: '/api/courses' })).statusCode);
    assert.deepEqual(codes, [200, 200, 200, 429, 429]);
  } finally {
    await s.close();
  }
});

test('a course comes with its composed board, and a played turn with the robots as it began and its events, no hand in either', async () => {
  const s = await startServer((await freshDb('sqlite')).db);
  try {
    const course = (await call(s.base, 'GET', '/api/courses/first-shift')).body;
    assert.equal(course.layout.grid.length, 12);
    assert.equal((await call(s.base, 'GET', '/api/courses/nowhere')).status, 404);
    const race = (await call(s.base, 'POST', '/api/races', { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'greedy' }], deal: { secret: false, seed: 4 } })).body;
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}/turns/1`)).status, 404, 'not played yet');
    const token = race.seats[0].token;
    const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, { authorization: `Bearer ${token}` })).body.you;
    await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { program: you.hand.slice(0, 5) }, { authorization: `Bearer ${token}` });
    const turn = await call(s.base, 'GET', `/api/races/${race.id}/turns/1`);
    assert.equal(turn.status, 200);
    assert.deepEqual(turn.body.robots.map((r: { name: string }) => r.name), ['Ava', 'Bolt']);
    assert.ok(turn.body.events.some((e: { type: string }) => e.type === 'revealed'));
    const text = JSON.stringify(turn.body);
    assert.ok(!/"hand"|"deck"|"registers"/.test(text), 'no hand, deck or hidden register');
    // The cards Ava kept in her hand are nowhere in it.
    const kept = you.hand.slice(5).map((c: string) => Number(c.split(':')[1]));
    for (const c of kept) assert.ok(!text.includes(`"card":${c}`), `card ${c} stays secret`);
  } finally {
    await s.close();
  }
});
