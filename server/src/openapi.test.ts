import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { freshDb, startServer } from './testing.js';

test('the OpenAPI document is written once and sent as prepared: one ETag, 304 to If-None-Match, brotli to a client that takes it, the same document', { timeout: 30_000 }, async () => {
  const { db } = await freshDb('sqlite');
  const s = await startServer(db);
  try {
    const get = (headers: Record<string, string>) => s.app.inject({ method: 'GET', url: '/api/openapi.json', headers });
    const [plain, again, br] = [await get({}), await get({}), await get({ 'accept-encoding': 'gzip, br' })];
    assert.equal(plain.statusCode, 200);
    assert.equal(JSON.parse(plain.body).openapi, '3.1.0');
    assert.match(String(plain.headers['content-type']), /^application\/json/);
    assert.ok(plain.headers.etag);
    assert.equal(again.headers.etag, plain.headers.etag);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 4, `${br.rawPayload.length} bytes in brotli of ${plain.rawPayload.length}`);
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    assert.equal((await get({ 'if-none-match': String(plain.headers.etag) })).statusCode, 304);
  } finally {
    await s.close();
    await db.destroy();
  }
});
