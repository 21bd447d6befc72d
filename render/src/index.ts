/** Pictures of the factory floor: SVG from a board (and robots, and a turn's events), PNG from SVG. */
export { renderSvg, type RenderOptions } from './render.js';
export { renderPng, type PngOptions } from './png.js';
export { checkSnapshots, type SnapshotCase, type SnapshotResult } from './snapshots.js';
export { COLORS } from './theme.js';
