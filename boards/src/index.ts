/**
 * boards: the shipped factory boards and courses and their loader (library.ts), the one JSON file
 * reader (json-text.ts, and json-file.ts for files), safe output files (out-file.ts), and Tiled import and export (tiled.ts,
 * tiled-files.ts).
 */
export { FACTORY_DIR, COURSES_DIR, boardNames, courseFromJson, courseNames, loadBoard, loadCourse, storedCourse } from './library.js';
export { MAX_JSON_BYTES, fileProblem, readJsonFile, readTextFile, notUtf8, utf8Text } from './json-file.js';
export { MAX_JSON_DEPTH, jsonSyntaxError, jsonTextError, lineColumn, parseJson } from './json-text.js';
export { writeOutputFile, writeProblem } from './out-file.js';
export {
  DEVICE_TYPES, EDGE_LAYERS, builtinTileset, fromTiled, toTiled,
  type TiledMap, type TiledObject, type TiledObjectLayer, type TiledProperty, type TiledTileLayer, type TilesetLoader,
} from './tiled.js';
export { TILESET_DIR, TILESET_PATH, exportTiledFile, formatMap, importTiledFile, writeTileset } from './tiled-files.js';
