/**
 * The part of render/ that runs in a browser too (no Node modules): the SVG of a board with its
 * robots, for the web client. Its exports map names it `./browser`.
 */
export { boardFrame, renderSvg, type RenderOptions } from './render.js';
export type { FloorState, RobotOnFloor } from './overlay.js';
export { ROBOT_DESIGNS, designOf, robotBody, type RobotDesign } from './robots.js';
