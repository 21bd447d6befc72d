/** Pictures of the factory floor: SVG from a board (and robots, and a turn's events), PNG from SVG. */
export { boardFrame, renderSvg, type RenderOptions } from './render.js';
export { ROBOT_DESIGNS, designOf, fanned, robotBody, robotGlyph, robotLegend, type RobotDesign, type RobotLook } from './robots.js';
export type { FloorState, RobotOnFloor } from './overlay.js';
export { renderPng, type PngOptions } from './png.js';
export { checkSnapshots, type SnapshotCase, type SnapshotResult } from './snapshots.js';
export { COLORS } from './theme.js';
