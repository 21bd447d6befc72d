import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundle } from '../../web/build/bundle.js';
import { call, freshDb, startServer, createSeated } from './testing.js';

test('the server serves the web client: pages naming the hashed bundles, assets cached for a year, compressed, and nothing outside the build', async () => {
  const manifest = await bundle();
  const s = await startServer((await freshDb('sqlite')).db);
  try {
    const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url, headers });
    const home = await get('/');
    assert.equal(home.statusCode, 200);
    assert.match(String(home.headers['content-type']), /^text\/html/);
    assert.ok(home.body.includes(`/assets/${manifest['home.js']}`) && home.body.includes(`/assets/${manifest['app.css']}`));
    assert.equal(home.headers['cache-control'], 'no-cache');
    const page = await get('/race/abc?seat=0&token=x');
    assert.ok(page.body.includes(`/assets/${manifest['race.js']}`));
    // Revalidated by its ETag.
    assert.equal((await get('/', { 'if-none-match': String(home.headers.etag) })).statusCode, 304);
    const js = await get(`/assets/${manifest['race.js']}`, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(js.statusCode, 200);
    assert.match(String(js.headers['content-type']), /^text\/javascript/);
    assert.equal(js.headers['content-encoding'], 'br');
    assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
    const plain = await get(`/assets/${manifest['race.js']}`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(js.rawPayload.length < plain.rawPayload.length / 2, 'compressed');
    assert.equal((await get(`/assets/${manifest['race.js']}`, { 'accept-encoding': 'gzip' })).headers['content-encoding'], 'gzip');
    assert.match(String((await get(`/assets/${manifest['app.css']}`)).headers['content-type']), /^text\/css/);
    assert.match(String((await get('/favicon.ico')).headers['content-type']), /^image\/svg\+xml/);
    for (const path of ['/assets/..%2f..%2fpackage.json', '/assets/manifest.json', '/assets/race.js', '/assets/home-XXXX.js', '/js/web/src/race.js', '/static/app.css'])
      assert.equal((await get(path)).statusCode, 404, path);
    // The API's own description moved from / to /api.
    assert.equal((await call(s.base, 'GET', '/api')).body.courses, '/api/courses');
  } finally {
    await s.close();
  }
});

test('a course picture (the home page shows them all) is sent compressed, with an ETag that answers 304, and cached an hour', async () => {
  const s = await startServer((await freshDb('sqlite')).db);
  try {
    const get = (headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url: '/api/courses/cube-works/picture.svg', headers });
    const plain = await get();
    assert.equal(plain.statusCode, 200);
    assert.match(String(plain.headers['content-type']), /^image\/svg\+xml/);
    assert.match(plain.body, /^<svg/);
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 10, `${br.rawPayload.length} bytes as sent, of ${plain.rawPayload.length}`);
    assert.equal((await get({ 'accept-encoding': 'gzip' })).headers['content-encoding'], 'gzip');
    assert.equal(br.headers['cache-control'], 'public, max-age=3600');
    assert.equal(br.headers.etag, plain.headers.etag);
    const again = await get({ 'if-none-match': String(plain.headers.etag) });
    assert.deepEqual([again.statusCode, again.rawPayload.length], [304, 0]);
    assert.equal((await get({ 'if-none-match': '"other"' })).statusCode, 200);
    assert.equal((await s.app.inject({ method: 'GET', url: '/api/courses/nowhere/picture.svg' })).statusCode, 404);
  } finally {
    await s.close();
  }
});

test('static files count against the rate limit like every route', async () => {
  const manifest = await bundle();
  const s = await startServer((await freshDb('sqlite')).db, undefined, { max: 3, windowMs: 60_000 });
  try {
    const codes = [];
    for (let k = 0; k < 3; k++) codes.push((await s.app.inject({ method: 'GET', url: `/assets/${manifest['race.js']}` })).statusCode);
    codes.push((await s.app.inject({ method: 'GET', url: '/favicon.svg' })).statusCode, (await s.app.inject({ method: 'GET', url: '/api/courses' })).statusCode);
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
    const race = (await createSeated(s.base, { course: 'first-shift', seats: [{ name: 'Ava' }, { name: 'Bolt', bot: 'greedy' }], deal: { secret: false, seed: 4 } })).body;
    assert.equal((await call(s.base, 'GET', `/api/races/${race.id}/turns/1`)).status, 404, 'not played yet');
    const token = race.seats[0].token;
    const you = (await call(s.base, 'GET', `/api/races/${race.id}/seats/0`, undefined, { authorization: `Bearer ${token}` })).body.you;
    await call(s.base, 'PUT', `/api/races/${race.id}/seats/0/orders`, { turn: 1, program: you.hand.slice(0, 5) }, { authorization: `Bearer ${token}` });
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
