/**
 * Boards drawn in the Tiled map editor (https://www.mapeditor.org), JSON map format: `fromTiled`
 * reads a map into a board file, `toTiled` writes a board file as a map. The layers and the tileset
 * are described for designers in docs/tiled.md; tiles are recognised by their properties
 * (`token`, `walls`, `ledges`, `ramps`, and the device types), never by their place on the sheet.
 * Pure: no file access here (tiled-files.ts reads and writes files). `fromTiled` never throws.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { err, MAX_BOARD_SIDE, ok, parseBoardFile, type BoardFile, type BoardJson, type Result } from '../../engine/src/index.js';
import { FLOOR_TOKENS, TILE, TILE_MEANINGS, TILESET_FILE, sidesName, tileId, tilesetJson } from './tileset.js';

/** A board file: the board object of SCENARIOS.md plus its name, author and description (the engine's). */
export type { BoardFile };

/** Finds an external tileset (the `source` of a map's tileset reference) and returns its JSON. */
export type TilesetLoader = (source: string) => Result<unknown>;

export interface TiledProperty {
  name: string;
  type: 'string' | 'int';
  value: string | number;
}
export interface TiledTileLayer {
  id: number;
  name: string;
  type: 'tilelayer';
  x: 0;
  y: 0;
  width: number;
  height: number;
  opacity: 1;
  visible: true;
  data: number[];
}
export interface TiledObject {
  id: number;
  name: string;
  type: string;
  gid: number;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: 0;
  visible: true;
  properties: TiledProperty[];
}
export interface TiledObjectLayer {
  id: number;
  name: string;
  type: 'objectgroup';
  draworder: 'topdown';
  x: 0;
  y: 0;
  opacity: 1;
  visible: true;
  objects: TiledObject[];
}
/** A Tiled JSON map (.tmj), as `toTiled` writes it. */
export interface TiledMap {
  type: 'map';
  version: string;
  tiledversion: string;
  orientation: 'orthogonal';
  renderorder: 'right-down';
  infinite: false;
  compressionlevel: -1;
  width: number;
  height: number;
  tilewidth: number;
  tileheight: number;
  nextlayerid: number;
  nextobjectid: number;
  properties: TiledProperty[];
  tilesets: { firstgid: number; source: string }[];
  layers: (TiledTileLayer | TiledObjectLayer)[];
}

/** The layers the importer reads; any other layer must have a name starting with "_". */
export const EDGE_LAYERS = ['walls', 'ledges', 'ramps'] as const;
type EdgeLayer = (typeof EDGE_LAYERS)[number];
const KNOWN_LAYERS = ['floor', ...EDGE_LAYERS, 'devices'];
export const DEVICE_TYPES = ['laser', 'pusher', 'crusher', 'flag', 'start'] as const;
/**
 * The custom properties a device object of each type may carry (its tile's come with it); any
 * other is refused, so that a typo (`beam` for `beams`) does not silently leave the tile's value.
 */
const DEVICE_PROPS: ReadonlyMap<string, readonly string[]> = new Map([['laser', ['dir', 'beams']], ['pusher', ['dir', 'registers']], ['crusher', ['registers']], ['flag', ['number']], ['start', []]]);
/** The map's custom properties: the board file's texts. */
const MAP_PROPS = ['name', 'author', 'description'];

/** Without a loader, a tileset source whose file name is roborally.tsj is the tileset of this project. */
export const builtinTileset: TilesetLoader = (source) =>
  source.split(/[\\/]/).pop() === TILESET_FILE
    ? ok(tilesetJson())
    : err(`tileset "${source}"`, `cannot read an external tileset here; expected "${TILESET_FILE}" or a tileset embedded in the map`);

// ---------------------------------------------------------------------------------------------
// Reading

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);
const posInt = (v: unknown): v is number => isInt(v) && v > 0;

interface Tile {
  readonly label: string;
  readonly type: string;
  readonly props: ReadonlyMap<string, unknown>;
}
interface Tileset {
  readonly name: string;
  readonly firstgid: number;
  readonly count: number;
  readonly tiles: ReadonlyMap<number, Tile>;
}

/** Tiled writes properties as a list of {name, type, value}; before 1.2 as a plain object. */
function readProps(v: unknown): Map<string, unknown> {
  const m = new Map<string, unknown>();
  if (Array.isArray(v)) {
    for (const p of v) if (isObject(p) && typeof p.name === 'string') m.set(p.name, p.value);
  } else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) m.set(k, x);
  }
  return m;
}
/** Tiled 1.9 called a tile's or object's type its "class"; 1.8 and 1.10 on write "type". */
const classOf = (o: Record<string, unknown>): string =>
  typeof o.type === 'string' && o.type !== '' ? o.type : typeof o.class === 'string' ? o.class : '';

function readTileset(ref: unknown, k: number, load: TilesetLoader): Result<Tileset> {
  const where = `tilesets[${k}]`;
  if (!isObject(ref) || !posInt(ref.firstgid)) return err(where, 'expected an object with a "firstgid" of 1 or more');
  let ts: unknown = ref;
  if (typeof ref.source === 'string') {
    if (/\.tsx$/i.test(ref.source))
      return err(`tileset "${ref.source}"`, 'is an XML tileset; expected a JSON tileset (.tsj or .json): save it from Tiled as JSON');
    const loaded = load(ref.source);
    if (!loaded.ok) return loaded;
    ts = loaded.value;
  }
  if (!isObject(ts)) return err(where, 'expected a tileset object');
  const name = typeof ts.name === 'string' ? ts.name : typeof ref.source === 'string' ? ref.source : `#${k}`;
  const tiles = new Map<number, Tile>();
  if (ts.tiles !== undefined && !Array.isArray(ts.tiles)) return err(`tileset "${name}"`, 'expected "tiles" to be a list');
  for (const t of (ts.tiles ?? []) as unknown[]) {
    if (!isObject(t) || !isInt(t.id) || t.id < 0) return err(`tileset "${name}"`, 'expected each of "tiles" to have an "id" of 0 or more');
    tiles.set(t.id, { label: `tile ${t.id} of tileset "${name}"`, type: classOf(t), props: readProps(t.properties) });
  }
  const count = isInt(ts.tilecount) ? ts.tilecount : Infinity;
  return ok({ name, firstgid: ref.firstgid, count, tiles });
}

const FLIP_BITS = 0x10000000;
/** The most tilesets a map may list (a map drawn with the roborally tileset lists one). */
export const MAX_TILESETS = 16;

/** A layer's cells as global tile ids, row by row; the layer must be the map's size. */
/** A value from the file, for a message: numbers and strings as they are, anything else by its kind
 *  (a value without toString cannot be turned into text). */
const shown = (v: unknown): string => (typeof v === 'number' || typeof v === 'string' ? String(v) : v === null ? 'null' : typeof v);

function layerData(layer: Record<string, unknown>, where: string, width: number, height: number): Result<number[]> {
  if (layer.chunks !== undefined)
    return err(where, 'holds the chunks of an infinite map; expected a fixed-size map (untick "Infinite" in the map properties)');
  if (layer.width !== width || layer.height !== height)
    return err(where, `is ${shown(layer.width)}×${shown(layer.height)} cells; expected the map's ${width}×${height}`);
  let data: unknown = layer.data;
  if (typeof data === 'string') {
    if (layer.encoding !== 'base64') return err(where, `has data encoded as ${JSON.stringify(layer.encoding)}; expected CSV or Base64`);
    let bytes: Buffer = Buffer.from(data, 'base64');
    const compression = layer.compression ?? '';
    // Inflated no further than one byte past the map's cells: a small file cannot fill the memory.
    const bound = { maxOutputLength: width * height * 4 + 1 };
    try {
      if (compression === 'zlib') bytes = inflateSync(bytes, bound);
      else if (compression === 'gzip') bytes = gunzipSync(bytes, bound);
      else if (compression !== '')
        return err(where, `is compressed with ${JSON.stringify(compression)}; expected no compression, zlib or gzip`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        return err(where, `inflates to more than ${width}×${height} cells; expected ${width * height} cells of 4 bytes`);
      return err(where, `cannot be decompressed (${(e as Error).message}); expected ${shown(compression)} data`);
    }
    if (bytes.length !== width * height * 4)
      return err(where, `has ${bytes.length / 4} cells; expected ${width}×${height} = ${width * height}`);
    data = Array.from({ length: width * height }, (_, i) => bytes.readUInt32LE(i * 4));
  }
  if (!Array.isArray(data)) return err(where, 'expected "data": a list of tile ids');
  if (data.length !== width * height)
    return err(where, `has ${data.length} cells; expected ${width}×${height} = ${width * height}`);
  for (let i = 0; i < data.length; i++) {
    const v: unknown = data[i];
    if (!isInt(v) || v < 0)
      return err(`${where} cell (${i % width},${Math.floor(i / width)})`, `expected a tile id, found ${JSON.stringify(v)}`);
  }
  return ok(data as number[]);
}

/** Lists the layers, group layers opened up. */
function flattenLayers(list: unknown[], out: Record<string, unknown>[]): void {
  for (const l of list) {
    if (!isObject(l)) continue;
    if (l.type === 'group' && Array.isArray(l.layers)) flattenLayers(l.layers, out);
    else out.push(l);
  }
}

const DIR_LETTERS = ['N', 'E', 'S', 'W'];
const sidesMask = (v: unknown): number | undefined => {
  if (typeof v !== 'string' || v.length === 0) return undefined;
  let m = 0;
  for (const ch of v.toUpperCase()) {
    const d = DIR_LETTERS.indexOf(ch);
    if (d < 0 || m & (1 << d)) return undefined;
    m |= 1 << d;
  }
  return m;
};
const intOf = (v: unknown): number | undefined =>
  isInt(v) ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;
const registersOf = (v: unknown): number[] | undefined => {
  const parts = isInt(v) ? [v] : typeof v === 'string' ? v.split(/[\s,]+/).filter((s) => s !== '').map(intOf) : [];
  return parts.length > 0 && parts.every((r) => r !== undefined && r >= 1 && r <= 5) ? (parts as number[]) : undefined;
};

/** What a tile is, for messages: "a walls tile", "a laser tile", or the tile's own words. */
function kindOf(tile: Tile): string {
  if (typeof tile.props.get('token') === 'string') return `the floor tile "${String(tile.props.get('token'))}"`;
  for (const k of EDGE_LAYERS) if (tile.props.has(k)) return `a ${k} tile (it belongs on the "${k}" layer)`;
  if ((DEVICE_TYPES as readonly string[]).includes(tile.type)) return `a ${tile.type} tile (place it as a tile object on the "devices" layer)`;
  return `${tile.label}, which has none of the properties token, walls, ledges, ramps`;
}

/**
 * Reads a Tiled JSON map into a board file, validated by the engine's parseBoardFile. External
 * tilesets are found with `loadTileset` (by default only roborally.tsj, this project's own).
 * Every refusal names the layer and the cell (or the object) and says what was expected.
 */
export function fromTiled(json: unknown, loadTileset: TilesetLoader = builtinTileset): Result<BoardFile> {
  if (!isObject(json)) return err('map', 'expected a Tiled JSON map (an object with "layers" and "tilesets")');
  if (json.type !== undefined && json.type !== 'map') return err('map', `is a ${JSON.stringify(json.type)}; expected a map`);
  if (json.orientation !== 'orthogonal') return err('map', `has orientation ${JSON.stringify(json.orientation)}; expected "orthogonal"`);
  if (json.infinite === true) return err('map', 'is infinite; expected a fixed-size map (untick "Infinite" in the map properties)');
  const { width, height, tilewidth, tileheight } = json;
  if (!posInt(width) || !posInt(height)) return err('map', 'expected a "width" and "height" in cells, 1 or more');
  if (width > MAX_BOARD_SIDE || height > MAX_BOARD_SIDE) return err('map', `is ${width}×${height} cells; expected at most ${MAX_BOARD_SIDE} a side`);
  if (!posInt(tilewidth) || !posInt(tileheight)) return err('map', 'expected a "tilewidth" and "tileheight" in pixels');

  // Tilesets, and a tile for a global id.
  if (!Array.isArray(json.tilesets)) return err('map', 'expected "tilesets": a list');
  // Each may be a file of its own, read and parsed (up to 4 MB): a map naming one file 100,000 times would be read for an hour.
  if (json.tilesets.length > MAX_TILESETS) return err('tilesets', `${json.tilesets.length} tilesets; expected at most ${MAX_TILESETS} (the roborally tileset is one)`);
  const tilesets: Tileset[] = [];
  for (let k = 0; k < json.tilesets.length; k++) {
    const ts = readTileset(json.tilesets[k], k, loadTileset);
    if (!ts.ok) return ts;
    tilesets.push(ts.value);
  }
  tilesets.sort((a, b) => b.firstgid - a.firstgid);
  const tileAt = (gid: number, where: string): Result<Tile> => {
    if (gid >= FLIP_BITS) return err(where, 'holds a flipped or rotated tile; expected tiles as drawn (each direction has a tile of its own)');
    const ts = tilesets.find((t) => t.firstgid <= gid);
    const local = ts ? gid - ts.firstgid : -1;
    if (!ts || local >= ts.count) return err(where, `holds tile id ${gid}, which no tileset of the map holds; expected a tile of the roborally tileset`);
    return ok(ts.tiles.get(local) ?? { label: `tile ${local} of tileset "${ts.name}"`, type: '', props: new Map() });
  };

  // Layers by name.
  if (!Array.isArray(json.layers)) return err('map', 'expected "layers": a list');
  const all: Record<string, unknown>[] = [];
  flattenLayers(json.layers, all);
  const layers = new Map<string, Record<string, unknown>>();
  for (const l of all) {
    const name = typeof l.name === 'string' ? l.name.trim() : '';
    if (name.startsWith('_')) continue;
    const key = name.toLowerCase();
    if (!KNOWN_LAYERS.includes(key))
      return err(`layer "${name}"`, `unknown layer; expected one of ${KNOWN_LAYERS.join(', ')} (a layer whose name starts with "_" is skipped: use one for notes)`);
    if (layers.has(key)) return err(`layer "${name}"`, 'appears twice; expected one layer of each name');
    const wanted = key === 'devices' ? 'objectgroup' : 'tilelayer';
    if (l.type !== wanted)
      return err(`layer "${name}"`, `is a ${shown(l.type)} layer; expected a ${wanted === 'tilelayer' ? 'tile layer' : 'object layer'}`);
    layers.set(key, l);
  }

  // Floor.
  const floorLayer = layers.get('floor');
  if (!floorLayer) return err('layer "floor"', 'is missing; expected a tile layer named "floor" with a floor tile in every cell');
  const floorData = layerData(floorLayer, 'layer "floor"', width, height);
  if (!floorData.ok) return floorData;
  const grid: string[] = [];
  const portals = new Map<string, [number, number][]>();
  for (let y = 0; y < height; y++) {
    const row: string[] = [];
    for (let x = 0; x < width; x++) {
      const where = `layer "floor" cell (${x},${y})`;
      const gid = floorData.value[y * width + x]!;
      if (gid === 0) return err(where, 'is empty; expected a floor tile (the no-floor tile "x" marks a cell outside the course)');
      const tile = tileAt(gid, where);
      if (!tile.ok) return tile;
      const token = tile.value.props.get('token');
      if (typeof token !== 'string') return err(where, `holds ${kindOf(tile.value)}; expected a floor tile (a tile with a "token" property)`);
      if (!FLOOR_TOKENS.includes(token))
        return err(where, `holds ${tile.value.label} with token ${JSON.stringify(token)}; expected one of ${FLOOR_TOKENS.join(' ')}`);
      if (/^T\d$/.test(token)) portals.set(token, [...(portals.get(token) ?? []), [x, y]]);
      row.push(token);
    }
    grid.push(row.join(' '));
  }
  for (const [label, cells] of portals) {
    if (cells.length !== 2) {
      const [x, y] = cells[cells.length === 1 ? 0 : 2]!;
      return err(`layer "floor" cell (${x},${y})`, `holds portal ${label}, which appears ${cells.length} times; expected exactly two ${label} tiles (a pair)`);
    }
  }

  // Walls, ledges, ramps: a mask of sides per cell.
  const edges: Record<EdgeLayer, Uint8Array> = { walls: new Uint8Array(width * height), ledges: new Uint8Array(width * height), ramps: new Uint8Array(width * height) };
  for (const name of EDGE_LAYERS) {
    const layer = layers.get(name);
    if (!layer) continue;
    const data = layerData(layer, `layer "${name}"`, width, height);
    if (!data.ok) return data;
    for (let i = 0; i < width * height; i++) {
      const gid = data.value[i]!;
      if (gid === 0) continue;
      const where = `layer "${name}" cell (${i % width},${Math.floor(i / width)})`;
      const tile = tileAt(gid, where);
      if (!tile.ok) return tile;
      if (!tile.value.props.has(name)) return err(where, `holds ${kindOf(tile.value)}; expected a ${name} tile (a tile with a "${name}" property)`);
      const mask = sidesMask(tile.value.props.get(name));
      if (mask === undefined)
        return err(where, `holds ${tile.value.label} with ${name} ${JSON.stringify(tile.value.props.get(name))}; expected sides among N, E, S, W, like "NE"`);
      edges[name][i] = mask;
    }
  }
  for (let i = 0; i < width * height; i++) {
    const lone = edges.ramps[i]! & ~edges.ledges[i]!;
    if (lone) {
      const side = sidesName(lone);
      return err(`layer "ramps" cell (${i % width},${Math.floor(i / width)})`,
        `has a ramp on side ${side} with no ledge under it; expected a ledge on side ${side} of this cell on the "ledges" layer`);
    }
  }
  const edgeList = (masks: Uint8Array): string[] => {
    const out: string[] = [];
    for (let i = 0; i < masks.length; i++) {
      for (let d = 0; d < 4; d++) if (masks[i]! & (1 << d)) out.push(`${i % width},${Math.floor(i / width)} ${DIR_LETTERS[d]}`);
    }
    return out;
  };

  // Devices.
  const lasers: NonNullable<BoardJson['lasers']> = [];
  const pushers: NonNullable<BoardJson['pushers']> = [];
  const crushers: NonNullable<BoardJson['crushers']> = [];
  const flags: { n: number; at: [number, number]; where: string }[] = [];
  let start: [number, number] | undefined;
  const devices = layers.get('devices');
  if (devices) {
    if (!Array.isArray(devices.objects)) return err('layer "devices"', 'expected "objects": a list');
    for (let k = 0; k < devices.objects.length; k++) {
      const o: unknown = devices.objects[k];
      if (!isObject(o)) return err(`layer "devices" object #${k}`, 'expected an object');
      const label = `layer "devices" object ${isInt(o.id) ? o.id : `#${k}`}${typeof o.name === 'string' && o.name !== '' ? ` "${o.name}"` : ''}`;
      if (typeof o.x !== 'number' || typeof o.y !== 'number') return err(label, 'expected a position "x", "y" in pixels');
      let tile: Tile | undefined;
      let cx: number, cy: number;
      if (o.gid !== undefined) {
        if (!isInt(o.gid) || o.gid <= 0) return err(label, `has gid ${JSON.stringify(o.gid)}; expected a tile id`);
        const t = tileAt(o.gid, label);
        if (!t.ok) return t;
        tile = t.value;
        // A tile object's position is its bottom-left corner; it belongs to the cell under its centre.
        cx = o.x + (typeof o.width === 'number' && o.width > 0 ? o.width : tilewidth) / 2;
        cy = o.y - (typeof o.height === 'number' && o.height > 0 ? o.height : tileheight) / 2;
      } else {
        cx = o.x + (typeof o.width === 'number' ? o.width : 0) / 2;
        cy = o.y + (typeof o.height === 'number' ? o.height : 0) / 2;
      }
      const x = Math.floor(cx / tilewidth), y = Math.floor(cy / tileheight);
      const type = (classOf(o) || tile?.type || '').toLowerCase();
      const where = `${label}${type ? ` (${type})` : ''} at cell (${x},${y})`;
      if (x < 0 || y < 0 || x >= width || y >= height) return err(where, `is off the map; expected a cell of the ${width}×${height} map`);
      if (typeof o.rotation === 'number' && o.rotation !== 0)
        return err(where, 'is rotated; expected rotation 0 (each direction has a tile of its own: set "dir" instead)');
      const own = readProps(o.properties);
      const known = DEVICE_PROPS.get(type);
      const stray = known ? [...own.keys()].find((k) => !known.includes(k)) : undefined;
      if (stray !== undefined)
        return err(where, `has the unknown property "${stray}"; expected ${known!.length ? `only ${known!.map((k) => `"${k}"`).join(', ')}` : 'no property'} on a ${type}`);
      const props = new Map([...(tile?.props ?? []), ...own]);
      const dir = (): Result<string> => {
        const d = props.get('dir');
        return typeof d === 'string' && DIR_LETTERS.includes(d.trim().toUpperCase())
          ? ok(d.trim().toUpperCase())
          : err(where, `has ${d === undefined ? 'no "dir" property' : `"dir" ${JSON.stringify(d)}`}; expected "dir": N, E, S or W`);
      };
      const registers = (): Result<number[]> => {
        const r = registersOf(props.get('registers'));
        return r ? ok(r) : err(where, `has ${props.has('registers') ? `"registers" ${JSON.stringify(props.get('registers'))}` : 'no "registers" property'}; expected the register phases it acts in, 1 to 5, like "2,4"`);
      };
      switch (type) {
        case 'laser': {
          const d = dir();
          if (!d.ok) return d;
          const beams = props.has('beams') ? intOf(props.get('beams')) : 1;
          if (beams === undefined || beams < 1 || beams > 3)
            return err(where, `has "beams" ${JSON.stringify(props.get('beams'))}; expected 1, 2 or 3`);
          lasers.push({ x, y, dir: d.value, beams });
          break;
        }
        case 'pusher': {
          const d = dir();
          if (!d.ok) return d;
          const r = registers();
          if (!r.ok) return r;
          pushers.push({ x, y, dir: d.value, registers: r.value });
          break;
        }
        case 'crusher': {
          const r = registers();
          if (!r.ok) return r;
          crushers.push({ x, y, registers: r.value });
          break;
        }
        case 'flag': {
          const n = intOf(props.get('number'));
          if (n === undefined || n < 1)
            return err(where, `has ${props.has('number') ? `"number" ${JSON.stringify(props.get('number'))}` : 'no "number" property'}; expected "number": its place in the race order, 1 for the first flag`);
          const same = flags.find((f) => f.n === n);
          if (same) return err(where, `is flag ${n} again; expected each flag number once (flag ${n} is ${same.where.replace(/^layer "devices" /, '')})`);
          const here = flags.find((f) => f.at[0] === x && f.at[1] === y);
          if (here) return err(where, `stands where flag ${here.n} stands; expected one flag per cell`);
          flags.push({ n, at: [x, y], where });
          break;
        }
        case 'start':
          if (start) return err(where, `is a second start (the first is at (${start[0]},${start[1]})); expected at most one`);
          start = [x, y];
          break;
        default:
          return err(where, `${type ? `has the unknown type "${type}"` : 'has no type'}; expected one of ${DEVICE_TYPES.join(', ')}`);
      }
    }
  }
  flags.sort((a, b) => a.n - b.n);
  for (let k = 0; k < flags.length; k++) {
    if (flags[k]!.n !== k + 1)
      return err('layer "devices"', `has flags numbered ${flags.map((f) => f.n).join(', ')}; expected 1 to ${flags.length} with none missing (flag ${k + 1} is missing)`);
  }

  // The map's properties.
  const mapProps = readProps(json.properties);
  const strayMap = [...mapProps.keys()].find((k) => !MAP_PROPS.includes(k));
  if (strayMap !== undefined) return err(`map property "${strayMap}"`, `is unknown; expected only ${MAP_PROPS.map((k) => `"${k}"`).join(', ')} (Map > Map Properties)`);
  const text = (key: string): Result<string> => {
    const v = mapProps.get(key);
    return typeof v === 'string' && v.trim() !== ''
      ? ok(v)
      : err(`map property "${key}"`, `${v === undefined ? 'is missing' : `is ${JSON.stringify(v)}`}; expected a non-empty string property "${key}" (Map > Map Properties)`);
  };
  const name = text('name');
  if (!name.ok) return name;
  const author = text('author');
  if (!author.ok) return author;
  const description = text('description');
  if (!description.ok) return description;

  const board: BoardFile = { name: name.value, author: author.value, description: description.value, grid };
  const walls = edgeList(edges.walls), ledges = edgeList(edges.ledges), ramps = edgeList(edges.ramps);
  if (walls.length) board.walls = walls;
  if (ledges.length) board.ledges = ledges;
  if (ramps.length) board.ramps = ramps;
  if (lasers.length) board.lasers = lasers;
  if (pushers.length) board.pushers = pushers;
  if (crushers.length) board.crushers = crushers;
  if (flags.length) board.flags = flags.map((f) => f.at);
  if (start) board.start = start;
  const checked = parseBoardFile(board);
  if (!checked.ok) return err(`the board read from the map, ${checked.error.field}`, checked.error.message);
  return ok(board);
}

// ---------------------------------------------------------------------------------------------
// Writing

const gidOf = (type: string, props: Record<string, string | number>, what: string): number => {
  const id = tileId(type, props);
  if (id === undefined) throw new Error(`toTiled: the roborally tileset has no tile for ${what}`);
  return id + 1;
};
const prop = (name: string, value: string | number): TiledProperty => ({ name, type: typeof value === 'number' ? 'int' : 'string', value });

/**
 * Writes a board file as a Tiled JSON map that uses the roborally tileset at `tilesetSource`
 * (a path relative to where the map will be saved). The board must be valid (parseBoard accepts
 * it); a cell token or an edge the tileset cannot show throws.
 */
export function toTiled(board: BoardFile, tilesetSource: string): TiledMap {
  const rows = board.grid.map((r) => r.trim().split(/\s+/));
  const width = rows[0]?.length ?? 0, height = rows.length;
  const floor = rows.flatMap((row) => row.map((token) => gidOf('floor', { token }, `the cell token "${token}"`)));

  const layers: (TiledTileLayer | TiledObjectLayer)[] = [];
  const tileLayer = (name: string, data: number[]): TiledTileLayer =>
    ({ id: layers.length + 1, name, type: 'tilelayer', x: 0, y: 0, width, height, opacity: 1, visible: true, data });
  layers.push(tileLayer('floor', floor));
  // Drawn bottom to top: ledges, the ramps over them, walls.
  for (const name of ['ledges', 'ramps', 'walls'] as const) {
    const masks = new Array<number>(width * height).fill(0);
    for (const e of board[name] ?? []) {
      const m = /^\s*(\d+)\s*,\s*(\d+)\s+([NESW])\s*$/.exec(e);
      if (!m || Number(m[1]) >= width || Number(m[2]) >= height) throw new Error(`toTiled: ${name} entry ${JSON.stringify(e)} is not "x,y D" on the board`);
      masks[Number(m[2]) * width + Number(m[1])]! |= 1 << DIR_LETTERS.indexOf(m[3]!);
    }
    layers.push(tileLayer(name, masks.map((mask) => (mask ? gidOf(name, { [name]: sidesName(mask) }, `${name} ${sidesName(mask)}`) : 0))));
  }

  const objects: TiledObject[] = [];
  const place = (type: string, name: string, x: number, y: number, gid: number, properties: TiledProperty[]): void => {
    objects.push({ id: objects.length + 1, name, type, gid, x: x * TILE, y: (y + 1) * TILE, width: TILE, height: TILE, rotation: 0, visible: true, properties });
  };
  for (const l of board.lasers ?? []) {
    const beams = l.beams ?? 1;
    place('laser', `laser ${l.dir}${beams > 1 ? ` ×${beams}` : ''}`, l.x, l.y, gidOf('laser', { dir: l.dir, beams }, `a laser ${l.dir} with ${beams} beams`),
      [prop('beams', beams), prop('dir', l.dir)]);
  }
  for (const p of board.pushers ?? []) {
    place('pusher', `pusher ${p.dir} ${p.registers.join(',')}`, p.x, p.y, gidOf('pusher', { dir: p.dir }, `a pusher ${p.dir}`),
      [prop('dir', p.dir), prop('registers', p.registers.join(','))]);
  }
  for (const c of board.crushers ?? []) {
    place('crusher', `crusher ${c.registers.join(',')}`, c.x, c.y, gidOf('crusher', {}, 'a crusher'), [prop('registers', c.registers.join(','))]);
  }
  (board.flags ?? []).forEach(([x, y], k) => {
    const gid = tileId('flag', { number: k + 1 }) ?? TILE_MEANINGS.findIndex((t) => t.type === 'flag' && t.properties.number === undefined);
    place('flag', `flag ${k + 1}`, x, y, gid + 1, [prop('number', k + 1)]);
  });
  if (board.start) place('start', 'start', board.start[0], board.start[1], gidOf('start', {}, 'the start'), []);
  layers.push({ id: layers.length + 1, name: 'devices', type: 'objectgroup', draworder: 'topdown', x: 0, y: 0, opacity: 1, visible: true, objects });

  return {
    type: 'map',
    version: '1.10',
    tiledversion: '1.10.2',
    orientation: 'orthogonal',
    renderorder: 'right-down',
    infinite: false,
    compressionlevel: -1,
    width,
    height,
    tilewidth: TILE,
    tileheight: TILE,
    nextlayerid: layers.length + 1,
    nextobjectid: objects.length + 1,
    properties: [prop('author', board.author), prop('description', board.description), prop('name', board.name)],
    tilesets: [{ firstgid: 1, source: tilesetSource }],
    layers,
  };
}
