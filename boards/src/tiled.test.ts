/** Boards drawn in Tiled (docs/tiled.md): the round trip, tiles matched by property, refusals, the tileset files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { parseBoard, type Result } from '../../engine/src/index.js';
import { fromTiled, toTiled, type BoardFile, type TiledMap, type TiledTileLayer, type TiledObjectLayer } from './tiled.js';
import { TILESET_DIR, TILESET_PATH, exportTiledFile, formatMap, importTiledFile } from './tiled-files.js';
import { FLOOR_TOKENS, TILE_MEANINGS, decodePng, sidesName, tileId, tilesetJson, tilesetPixels } from './tileset.js';

const mask = (k: number) => sidesName(k);

/** Cells 0…14 of a 9-wide board get the 15 side sets in turn: every wall, ledge and ramp tile. */
const allSides = (first: number): string[] =>
  Array.from({ length: 15 }, (_, k) => {
    const i = first + k;
    return [...mask(k + 1)].map((d) => `${i % 9},${Math.floor(i / 9)} ${d}`);
  }).flat();

/** Every cell token, walls, ledges and ramps of every side set, every laser, pushers, crushers, flags, start. */
const EVERYTHING: BoardFile = {
  name: 'Everything',
  author: 'Tests',
  description: 'Every element the Tiled tileset can show.',
  grid: [
    '. O ^ > v < ^^ >> vv',
    '<< G+ G- W WW ~ RF C T1',
    'T1 T2 T3 T4 T5 T6 T7 T8 T9',
    'T2 T3 T4 T5 T6 T7 T8 T9 x',
  ],
  walls: allSides(0),
  ledges: allSides(18),
  ramps: allSides(18),
  lasers: ['N', 'E', 'S', 'W'].flatMap((dir, d) => [1, 2, 3].map((beams) => ({ x: d * 2, y: beams - 1, dir, beams }))),
  pushers: [
    { x: 1, y: 3, dir: 'N', registers: [2, 4] },
    { x: 2, y: 3, dir: 'E', registers: [1, 3, 5] },
    { x: 3, y: 3, dir: 'S', registers: [1] },
    { x: 4, y: 3, dir: 'W', registers: [5] },
  ],
  crushers: [{ x: 5, y: 0, registers: [1, 2, 3, 4, 5] }, { x: 6, y: 2, registers: [3] }],
  flags: [[3, 0], [5, 1], [0, 3]],
  start: [4, 0],
};

/** An L-shaped course: the no-floor token outside it. */
const L_SHAPE: BoardFile = {
  name: 'L',
  author: 'Tests',
  description: 'An L-shaped course.',
  grid: ['. . x x', '. W x x', '. . . >>', 'G+ . . .'],
  walls: ['1,2 S'],
  flags: [[3, 3]],
  start: [0, 0],
};

/** Ten flags: the tenth has no numbered tile and uses the plain flag tile. */
const TEN_FLAGS: BoardFile = {
  name: 'Ten flags',
  author: 'Tests',
  description: 'Flags 1 to 10.',
  grid: ['. . . . .', '. . . . .'],
  flags: Array.from({ length: 10 }, (_, k): [number, number] => [k % 5, Math.floor(k / 5)]),
};

const value = <T>(r: Result<T>): T => {
  if (!r.ok) assert.fail(`refused: ${r.error.field}: ${r.error.message}`);
  return r.value;
};
/** A deep copy, so a test can edit a map freely. */
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const layer = (map: TiledMap, name: string) => map.layers.find((l) => l.name === name)!;
const tiles = (map: TiledMap, name: string) => layer(map, name) as TiledTileLayer;
const objects = (map: TiledMap) => (layer(map, 'devices') as TiledObjectLayer).objects;
const gid = (type: string, props: Record<string, string | number>) => tileId(type, props)! + 1;

/** The refusal of a map: its field and message. */
function refusal(json: unknown, load?: Parameters<typeof fromTiled>[1]): { field: string; message: string } {
  const r = fromTiled(json, load);
  assert.equal(r.ok, false, 'expected the map to be refused');
  return (r as { ok: false; error: { field: string; message: string } }).error;
}

test('every hand-made board comes back identical from Tiled', () => {
  for (const board of [EVERYTHING, L_SHAPE, TEN_FLAGS]) {
    assert.equal(parseBoard(board).ok, true, `${board.name} is a valid board`);
    assert.deepEqual(value(fromTiled(toTiled(board, 'roborally.tsj'))), board, board.name);
  }
});

test('the round trip covers every cell token and every wall, ledge and ramp side set', () => {
  const tokens = new Set(EVERYTHING.grid.join(' ').split(' '));
  assert.deepEqual([...FLOOR_TOKENS].filter((t) => !tokens.has(t)), []);
  const map = toTiled(EVERYTHING, 'roborally.tsj');
  for (const name of ['walls', 'ledges', 'ramps']) {
    const used = new Set(tiles(map, name).data.filter((g) => g !== 0));
    assert.equal(used.size, 15, `all 15 ${name} tiles are used`);
  }
  const lasers = new Set(objects(map).filter((o) => o.type === 'laser').map((o) => o.gid));
  assert.equal(lasers.size, 12, 'a laser tile for each direction and beam count');
});

test('a board exported to a file imports back identical, the tileset referenced relatively', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tiled-'));
  try {
    const out = join(dir, 'maps', 'everything.tmj');
    exportTiledFile(EVERYTHING, out);
    const json = JSON.parse(readFileSync(out, 'utf8')) as TiledMap;
    const source = json.tilesets[0]!.source;
    assert.equal(source.startsWith('/'), false, 'a relative path');
    assert.equal(resolve(dir, 'maps', source), TILESET_PATH);
    assert.deepEqual(value(importTiledFile(out)), EVERYTHING);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the exported map is an orthogonal Tiled map with the layers floor, ledges, ramps, walls and devices', () => {
  const map = toTiled(L_SHAPE, '../tiled/roborally.tsj');
  assert.equal(map.orientation, 'orthogonal');
  assert.deepEqual([map.width, map.height, map.tilewidth, map.tileheight], [4, 4, 64, 64]);
  assert.deepEqual(map.layers.map((l) => [l.id, l.name, l.type]), [
    [1, 'floor', 'tilelayer'], [2, 'ledges', 'tilelayer'], [3, 'ramps', 'tilelayer'], [4, 'walls', 'tilelayer'], [5, 'devices', 'objectgroup'],
  ]);
  assert.equal(map.nextlayerid, 6);
  assert.deepEqual(map.tilesets, [{ firstgid: 1, source: '../tiled/roborally.tsj' }]);
  assert.deepEqual(map.properties.map((p) => [p.name, p.value]), [['author', 'Tests'], ['description', 'An L-shaped course.'], ['name', 'L']]);
  // A tile object stands on its bottom-left corner: the flag on (3,3) is at x 192, y 256.
  const flag = objects(map).find((o) => o.type === 'flag')!;
  assert.deepEqual([flag.x, flag.y, flag.width, flag.height, flag.gid], [192, 256, 64, 64, gid('flag', { number: 1 })]);
  assert.equal(tiles(map, 'walls').data[2 * 4 + 1], gid('walls', { walls: 'S' }));
});

test('walls listed in any order come back by cell, north row first, each cell N E S W', () => {
  const board: BoardFile = { ...L_SHAPE, walls: ['1,2 S', '0,0 W', '0,0 N', '2,2 E'] };
  const back = value(fromTiled(toTiled(board, 'roborally.tsj')));
  assert.deepEqual(back.walls, ['0,0 N', '0,0 W', '1,2 S', '2,2 E']);
  assert.deepEqual(value(parseBoard(back)).walls, value(parseBoard(board)).walls);
});

/** The tileset with its tiles in another order (ids permuted), and the map's tile ids moved to match. */
function reordered(map: TiledMap, firstgid: number): { map: TiledMap; tileset: Record<string, unknown> } {
  const n = TILE_MEANINGS.length;
  const newId = (id: number) => (id * 37 + 11) % n; // a permutation: 37 is prime to 100
  const ts = copy(tilesetJson());
  ts.tiles = (ts.tiles as { id: number }[]).map((t) => ({ ...t, id: newId(t.id) })).reverse();
  const m = copy(map);
  const move = (g: number) => (g === 0 ? 0 : newId(g - 1) + firstgid);
  for (const l of m.layers) {
    if (l.type === 'tilelayer') l.data = l.data.map(move);
    else for (const o of l.objects) o.gid = move(o.gid);
  }
  return { map: m, tileset: ts };
}

test('a map whose tileset was reorganised still imports: tiles are matched by their properties', () => {
  const { map, tileset } = reordered(toTiled(EVERYTHING, 'roborally.tsj'), 1);
  assert.notDeepEqual(map.layers, toTiled(EVERYTHING, 'roborally.tsj').layers);
  // The reordered tileset as an external file beside the map…
  assert.deepEqual(value(fromTiled(map, () => ({ ok: true, value: tileset }))), EVERYTHING);
  // …and embedded in the map, after a tileset of the designer's own.
  const { map: m2, tileset: ts2 } = reordered(toTiled(EVERYTHING, 'roborally.tsj'), 41);
  const deco = { firstgid: 1, name: 'deco', tilecount: 40, columns: 8, tilewidth: 64, tileheight: 64, image: 'deco.png', imagewidth: 512, imageheight: 320 };
  m2.tilesets = [deco, { firstgid: 41, ...ts2 }] as unknown as TiledMap['tilesets'];
  assert.deepEqual(value(fromTiled(m2)), EVERYTHING);
});

test('a reorganised tileset file beside a map file is read relative to the map', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tiled-'));
  try {
    const { map, tileset } = reordered(toTiled(L_SHAPE, 'sets/my-tiles.tsj'), 1);
    writeFileSync(join(dir, 'l.tmj'), JSON.stringify(map));
    const missing = importTiledFile(join(dir, 'l.tmj'));
    assert.equal(missing.ok, false);
    assert.match(!missing.ok ? missing.error.field : '', /^tileset "sets\/my-tiles\.tsj"$/);
    mkdirSync(join(dir, 'sets'));
    writeFileSync(join(dir, 'sets', 'my-tiles.tsj'), JSON.stringify(tileset));
    assert.deepEqual(value(importTiledFile(join(dir, 'l.tmj'))), L_SHAPE);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without a loader only roborally.tsj is known; other external tilesets are refused by name', () => {
  const map = toTiled(L_SHAPE, 'elsewhere/other.tsj');
  assert.deepEqual(refusal(map).field, 'tileset "elsewhere/other.tsj"');
  assert.deepEqual(value(fromTiled(toTiled(L_SHAPE, '../../some/where/roborally.tsj'))), L_SHAPE);
  const xml = toTiled(L_SHAPE, 'roborally.tsx');
  assert.match(refusal(xml).message, /XML tileset/);
});

/** Layer data as Tiled's Base64 (little-endian 32-bit ids), optionally compressed. */
const base64 = (data: number[], compress: (b: Buffer) => Buffer = (b) => b): string => {
  const b = Buffer.alloc(data.length * 4);
  data.forEach((v, i) => b.writeUInt32LE(v, i * 4));
  return compress(b).toString('base64');
};

test('layer data is read as CSV lists or as Base64, uncompressed, zlib or gzip', () => {
  const cases: [string, (b: Buffer) => Buffer][] = [['', (b) => b], ['zlib', (b) => deflateSync(b)], ['gzip', (b) => gzipSync(b)]];
  for (const [compression, compress] of cases) {
    const map = copy(toTiled(EVERYTHING, 'roborally.tsj'));
    for (const l of map.layers) {
      if (l.type !== 'tilelayer') continue;
      Object.assign(l, { encoding: 'base64', compression, data: base64(l.data, compress) });
    }
    assert.deepEqual(value(fromTiled(map)), EVERYTHING, compression || 'uncompressed');
  }
  const zstd = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  Object.assign(zstd.layers[0]!, { encoding: 'base64', compression: 'zstd', data: 'AAAA' });
  assert.deepEqual(refusal(zstd).field, 'layer "floor"');
  assert.match(refusal(zstd).message, /zstd.*expected no compression, zlib or gzip/);
});

test('a designer may place devices as point objects, or as bare tile objects that take dir and beams from their tile', () => {
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  const devices = layer(map, 'devices') as TiledObjectLayer;
  const extra: unknown[] = [
    // A tile object with no properties of its own: the laser E ×2 tile says dir E, beams 2.
    { id: 10, name: '', type: '', gid: gid('laser', { dir: 'E', beams: 2 }), x: 0, y: 128, width: 64, height: 64, rotation: 0, visible: true },
    // Point objects inside a cell; the type written as Tiled 1.9's "class".
    { id: 11, name: '', class: 'pusher', point: true, x: 100, y: 140, width: 0, height: 0, properties: [{ name: 'dir', type: 'string', value: 'W' }, { name: 'registers', type: 'string', value: '1 3 5' }] },
    { id: 12, name: '', type: 'crusher', point: true, x: 130, y: 200, properties: [{ name: 'registers', type: 'int', value: 2 }] },
    // A rectangle counts for the cell under its centre; properties as Tiled 1.0's plain object.
    { id: 13, name: '', type: 'laser', x: 192, y: 64, width: 64, height: 64, properties: { dir: 'S' } },
  ];
  devices.objects.push(...(extra as typeof devices.objects));
  const back = value(fromTiled(map));
  assert.deepEqual(back.lasers, [{ x: 0, y: 1, dir: 'E', beams: 2 }, { x: 3, y: 1, dir: 'S', beams: 1 }]);
  assert.deepEqual(back.pushers, [{ x: 1, y: 2, dir: 'W', registers: [1, 3, 5] }]);
  assert.deepEqual(back.crushers, [{ x: 2, y: 3, registers: [2] }]);
});

test('layers in groups are read, and layers whose names start with "_" are skipped', () => {
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj')) as unknown as { layers: unknown[] };
  const [floor, ...rest] = map.layers;
  map.layers = [
    { id: 9, name: 'board', type: 'group', layers: [floor, { id: 8, name: '_sketch', type: 'tilelayer', width: 1, height: 1, data: [99999] }] },
    { id: 7, name: '_background', type: 'imagelayer', image: 'photo.png' },
    ...rest,
  ];
  assert.deepEqual(value(fromTiled(map)), L_SHAPE);
});

// ---------------------------------------------------------------------------------------------
// Refusals: each names the layer and the cell or object, and says what was expected.

test('a tile that is not of the roborally tileset is refused, naming the layer and the cell', () => {
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj')) as TiledMap;
  (map.tilesets as unknown[]) = [{ firstgid: 1, name: 'deco', tilecount: 10, tilewidth: 64, tileheight: 64, tiles: [] }, { firstgid: 11, source: 'roborally.tsj' }];
  for (const l of map.layers) {
    if (l.type === 'tilelayer') l.data = l.data.map((g) => (g ? g + 10 : 0));
    else for (const o of l.objects) o.gid += 10;
  }
  assert.deepEqual(value(fromTiled(map)), L_SHAPE, 'shifted ids still import');
  tiles(map, 'floor').data[1 * 4 + 2] = 3; // a deco tile at (2,1)
  const e = refusal(map);
  assert.equal(e.field, 'layer "floor" cell (2,1)');
  assert.match(e.message, /tile 2 of tileset "deco".*expected a floor tile/);
  tiles(map, 'floor').data[1 * 4 + 2] = 5000; // no tileset holds it
  assert.equal(refusal(map).field, 'layer "floor" cell (2,1)');
  assert.match(refusal(map).message, /tile id 5000, which no tileset of the map holds/);
});

test('a tile of the wrong kind for its layer is refused with what it is and where it belongs', () => {
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  tiles(map, 'floor').data[0] = gid('walls', { walls: 'NE' });
  assert.deepEqual(refusal(map), {
    field: 'layer "floor" cell (0,0)',
    message: 'holds a walls tile (it belongs on the "walls" layer); expected a floor tile (a tile with a "token" property)',
  });
  const m2 = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  tiles(m2, 'walls').data[5] = gid('floor', { token: '>' });
  assert.deepEqual(refusal(m2), {
    field: 'layer "walls" cell (1,1)',
    message: 'holds the floor tile ">"; expected a walls tile (a tile with a "walls" property)',
  });
});

test('an empty floor cell, a flipped tile and a lone portal are refused at their cell', () => {
  const empty = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  tiles(empty, 'floor').data[6] = 0;
  assert.equal(refusal(empty).field, 'layer "floor" cell (2,1)');
  assert.match(refusal(empty).message, /is empty; expected a floor tile \(the no-floor tile "x"/);
  const flipped = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  tiles(flipped, 'floor').data[7]! += 0x80000000;
  assert.equal(refusal(flipped).field, 'layer "floor" cell (3,1)');
  assert.match(refusal(flipped).message, /flipped or rotated/);
  const portal = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  tiles(portal, 'floor').data[13] = gid('floor', { token: 'T4' });
  assert.deepEqual(refusal(portal), {
    field: 'layer "floor" cell (1,3)',
    message: 'holds portal T4, which appears 1 times; expected exactly two T4 tiles (a pair)',
  });
});

test('a map without a floor layer is refused', () => {
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  map.layers = map.layers.filter((l) => l.name !== 'floor');
  assert.deepEqual(refusal(map), {
    field: 'layer "floor"',
    message: 'is missing; expected a tile layer named "floor" with a floor tile in every cell',
  });
});

test('a layer of the wrong size is refused, naming the layer and both sizes', () => {
  const narrow = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  Object.assign(tiles(narrow, 'walls'), { width: 3, data: tiles(narrow, 'walls').data.slice(0, 12) });
  assert.deepEqual(refusal(narrow), { field: 'layer "walls"', message: 'is 3×4 cells; expected the map\'s 4×4' });
  const short = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  tiles(short, 'floor').data.pop();
  assert.deepEqual(refusal(short), { field: 'layer "floor"', message: 'has 15 cells; expected 4×4 = 16' });
});

test('a laser object without a dir is refused, naming the object and its cell', () => {
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  objects(map).push({ id: 9, name: 'broken', type: 'laser', point: true, x: 96, y: 160, properties: [{ name: 'beams', type: 'int', value: 2 }] } as never);
  assert.deepEqual(refusal(map), {
    field: 'layer "devices" object 9 "broken" (laser) at cell (1,2)',
    message: 'has no "dir" property; expected "dir": N, E, S or W',
  });
});

test('a property a device or the map does not take is refused by name, so a typo (beam for beams) is not lost silently', () => {
  const cases: [unknown, RegExp][] = [
    [{ id: 30, type: 'laser', point: true, x: 70, y: 70, properties: [{ name: 'dir', value: 'E' }, { name: 'beam', value: 3 }] }, /object 30 \(laser\) at cell \(1,1\).*the unknown property "beam"; expected only "dir", "beams" on a laser/],
    [{ id: 31, type: 'crusher', point: true, x: 70, y: 10, properties: [{ name: 'registers', value: '2' }, { name: 'dir', value: 'N' }] }, /the unknown property "dir"; expected only "registers" on a crusher/],
    [{ id: 32, type: 'start', point: true, x: 10, y: 70, properties: { number: 1 } }, /the unknown property "number"; expected no property on a start/],
  ];
  for (const [object, expected] of cases) {
    const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
    objects(map).splice(0, objects(map).length, object as never);
    const e = refusal(map);
    assert.match(`${e.field}: ${e.message}`, expected);
  }
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  map.properties.push({ name: 'descripton', type: 'string', value: 'typed wrong' });
  assert.deepEqual(refusal(map), { field: 'map property "descripton"', message: 'is unknown; expected only "name", "author", "description" (Map > Map Properties)' });
});

test('bad devices are refused at their cell: registers, beams, types, flag numbers, a second start, off the map', () => {
  const cases: [unknown, RegExp, RegExp][] = [
    [{ id: 20, type: 'pusher', point: true, x: 10, y: 10, properties: [{ name: 'dir', value: 'N' }] }, /object 20 \(pusher\) at cell \(0,0\)/, /no "registers" property; expected the register phases/],
    [{ id: 21, type: 'crusher', point: true, x: 70, y: 10, properties: [{ name: 'registers', value: '2,6' }] }, /object 21 \(crusher\) at cell \(1,0\)/, /"registers" "2,6"; expected .* 1 to 5/],
    [{ id: 22, type: 'laser', point: true, x: 70, y: 70, properties: [{ name: 'dir', value: 'E' }, { name: 'beams', value: 4 }] }, /object 22 \(laser\) at cell \(1,1\)/, /"beams" 4; expected 1, 2 or 3/],
    [{ id: 23, type: 'robot', point: true, x: 10, y: 70 }, /object 23 \(robot\) at cell \(0,1\)/, /unknown type "robot"; expected one of laser, pusher, crusher, flag, start/],
    [{ id: 24, point: true, x: 10, y: 70 }, /object 24 at cell \(0,1\)/, /has no type/],
    [{ id: 25, type: 'flag', point: true, x: 10, y: 70 }, /object 25 \(flag\) at cell \(0,1\)/, /no "number" property/],
    [{ id: 26, type: 'flag', point: true, x: 10, y: 70, properties: [{ name: 'number', value: 1 }] }, /object 26 \(flag\) at cell \(0,1\)/, /is flag 1 again/],
    [{ id: 27, type: 'start', point: true, x: 10, y: 70 }, /object 27 \(start\) at cell \(0,1\)/, /second start \(the first is at \(0,0\)\)/],
    [{ id: 28, type: 'crusher', point: true, x: 300, y: 10, properties: [{ name: 'registers', value: '1' }] }, /object 28 \(crusher\) at cell \(4,0\)/, /off the map/],
    [{ id: 29, type: 'laser', point: true, x: 10, y: 10, rotation: 90, properties: [{ name: 'dir', value: 'E' }] }, /object 29 \(laser\) at cell \(0,0\)/, /is rotated/],
  ];
  for (const [object, field, message] of cases) {
    const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
    objects(map).push(object as never);
    const e = refusal(map);
    assert.match(e.field, /^layer "devices" /);
    assert.match(e.field, field);
    assert.match(e.message, message);
  }
  const gap = copy(toTiled(TEN_FLAGS, 'roborally.tsj'));
  objects(gap).splice(2, 1);
  assert.deepEqual(refusal(gap), {
    field: 'layer "devices"',
    message: 'has flags numbered 1, 2, 4, 5, 6, 7, 8, 9, 10; expected 1 to 9 with none missing (flag 3 is missing)',
  });
});

test('a ramp with no ledge under it is refused at its cell', () => {
  const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  tiles(map, 'ramps').data[0] = gid('ramps', { ramps: 'NE' });
  tiles(map, 'ledges').data[0] = gid('ledges', { ledges: 'N' });
  assert.deepEqual(refusal(map), {
    field: 'layer "ramps" cell (0,0)',
    message: 'has a ramp on side E with no ledge under it; expected a ledge on side E of this cell on the "ledges" layer',
  });
});

test('layer data that inflates past the map\'s cells is refused without being inflated whole', () => {
  for (const [compression, compress] of [['zlib', deflateSync], ['gzip', gzipSync]] as const) {
    const map = copy(toTiled(L_SHAPE, 'roborally.tsj'));
    // 64 MB of zeros, some 64 KB compressed; the map holds 4x4 cells of 4 bytes.
    Object.assign(map.layers[0]!, { encoding: 'base64', compression, data: compress(Buffer.alloc(64 << 20)).toString('base64') });
    assert.deepEqual(refusal(map), { field: 'layer "floor"', message: 'inflates to more than 4×4 cells; expected 16 cells of 4 bytes' }, compression);
  }
});

test('a map listing its tileset file 100,000 times is refused before any is read (each was read and parsed again, up to 4 MB each)', () => {
  const map = copy(toTiled(L_SHAPE, 'big.tsj'));
  map.tilesets = Array.from({ length: 100_000 }, () => ({ firstgid: 1, source: 'big.tsj' }));
  let loads = 0;
  const r = fromTiled(map, () => (loads++, { ok: false, error: { field: 'tileset "big.tsj"', message: 'not read' } }));
  assert.deepEqual([r, loads], [{ ok: false, error: { field: 'tilesets', message: '100000 tilesets; expected at most 16 (the roborally tileset is one)' } }, 0]);
  map.tilesets = Array.from({ length: 16 }, (_, k) => ({ firstgid: 1 + 1000 * k, source: 'roborally.tsj' }));
  assert.equal(fromTiled(map).ok, true, 'sixteen are read');
});

test('a map over 48 cells a side is refused before its layers are read', () => {
  const map = { ...copy(toTiled(L_SHAPE, 'roborally.tsj')), width: 5000, height: 5000 };
  assert.deepEqual(refusal(map), { field: 'map', message: 'is 5000×5000 cells; expected at most 48 a side' });
});

test('a map file with a byte-order mark is read; bad JSON is refused at its line and column', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-tiled-bom-'));
  try {
    const file = join(dir, 'l.tmj');
    writeFileSync(file, `\uFEFF${formatMap(toTiled(L_SHAPE, resolve(TILESET_PATH)))}`);
    assert.deepEqual(value(importTiledFile(file)), L_SHAPE);
    writeFileSync(file, '{\n  "width": 4,\n  "height": 4 4\n}');
    const r = importTiledFile(file);
    assert.deepEqual(r, { ok: false, error: { field: `${file}:3:15`, message: 'not JSON: expected \',\' or \'}\' after a property, found "4"' } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unknown and repeated layers, a missing board name and non-orthogonal maps are refused', () => {
  const typo = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  typo.layers[3]!.name = 'wall';
  assert.equal(refusal(typo).field, 'layer "wall"');
  assert.match(refusal(typo).message, /unknown layer; expected one of floor, walls, ledges, ramps, devices/);
  const twice = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  twice.layers.push(copy(twice.layers[0]!));
  assert.deepEqual(refusal(twice), { field: 'layer "floor"', message: 'appears twice; expected one layer of each name' });
  const objectFloor = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  objectFloor.layers[0] = { ...objectFloor.layers[4]!, name: 'floor' } as never;
  objectFloor.layers.pop();
  assert.deepEqual(refusal(objectFloor), { field: 'layer "floor"', message: 'is a objectgroup layer; expected a tile layer' });
  const nameless = copy(toTiled(L_SHAPE, 'roborally.tsj'));
  nameless.properties = nameless.properties.filter((p) => p.name !== 'name');
  assert.deepEqual(refusal(nameless), {
    field: 'map property "name"',
    message: 'is missing; expected a non-empty string property "name" (Map > Map Properties)',
  });
  const iso = { ...copy(toTiled(L_SHAPE, 'roborally.tsj')), orientation: 'isometric' };
  assert.deepEqual(refusal(iso), { field: 'map', message: 'has orientation "isometric"; expected "orthogonal"' });
});

test('a layer size that cannot be turned into text is refused with its kind, not thrown (found by the property below)', () => {
  const m = copy(toTiled(EVERYTHING, 'roborally.tsj')) as unknown as { layers: Record<string, unknown>[] };
  m.layers[2]!.height = { toString: null };
  const r = fromTiled(m);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.error.message, /is \d+×object cells/);
});

test('fromTiled never throws, whatever it is given', () => {
  const good = toTiled(EVERYTHING, 'roborally.tsj');
  fc.assert(fc.property(fc.anything(), (v) => { fromTiled(v); }), { numRuns: 300 });
  // A valid map with one value somewhere replaced by anything.
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (path.length) paths.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => i < 3 && walk(x, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(good, []);
  fc.assert(
    fc.property(fc.constantFrom(...paths), fc.anything(), (path, v) => {
      const m = copy(good) as unknown as Record<string | number, unknown>;
      let o = m;
      for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
      o[path[path.length - 1]!] = v;
      const r = fromTiled(m);
      if (!r.ok) assert.equal(typeof r.error.field, 'string');
    }),
    { numRuns: 1000 },
  );
});

// ---------------------------------------------------------------------------------------------
// The tileset.

test('the committed tileset files equal a fresh generation', () => {
  const tsj = JSON.parse(readFileSync(join(TILESET_DIR, 'roborally.tsj'), 'utf8')) as unknown;
  assert.deepEqual(tsj, tilesetJson());
  const committed = decodePng(readFileSync(join(TILESET_DIR, 'roborally.png')));
  const fresh = tilesetPixels();
  assert.deepEqual([committed.width, committed.height], [fresh.width, fresh.height]);
  assert.ok(Buffer.from(committed.rgba).equals(Buffer.from(fresh.rgba)), 'the same pixels (rebuild with writeTileset() if the drawing changed)');
});

test('the tileset has one tile for every floor token, side set and device, each with its properties', () => {
  const ts = tilesetJson() as { tilecount: number; columns: number; imagewidth: number; imageheight: number; tiles: unknown[] };
  assert.equal(ts.tilecount, TILE_MEANINGS.length);
  assert.equal(ts.tiles.length, ts.tilecount);
  assert.equal(ts.imagewidth, ts.columns * 64);
  assert.equal(ts.imageheight, Math.ceil(ts.tilecount / ts.columns) * 64);
  for (const token of FLOOR_TOKENS) assert.notEqual(tileId('floor', { token }), undefined, token);
  for (const kind of ['walls', 'ledges', 'ramps']) for (let m = 1; m < 16; m++) assert.notEqual(tileId(kind, { [kind]: mask(m) }), undefined);
  for (const dir of ['N', 'E', 'S', 'W']) {
    for (const beams of [1, 2, 3]) assert.notEqual(tileId('laser', { dir, beams }), undefined);
    assert.notEqual(tileId('pusher', { dir }), undefined);
  }
  const keys = TILE_MEANINGS.map((t) => `${t.type} ${JSON.stringify(t.properties)}`);
  assert.equal(new Set(keys).size, keys.length, 'no two tiles mean the same');
});

test('the example map in boards/tiled imports, and exporting it again gives the same file', () => {
  const path = join(TILESET_DIR, 'example.tmj');
  const board = value(importTiledFile(path));
  assert.equal(board.name, 'Tiled example');
  assert.equal(readFileSync(path, 'utf8'), formatMap(toTiled(board, 'roborally.tsj')));
});
