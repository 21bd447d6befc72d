/** Colours and sizes of the pictures: one place to tune how they look. */

export const COLORS = {
  background: '#ffffff',
  ink: '#212121',
  muted: '#78909c',
  floor: '#cdd1d6',
  floorEdge: '#9ea5ad',
  floorShine: '#dadde1',
  outline: '#5f6b76',
  pitRim: '#4a4a4a',
  belt: '#f2b632',
  beltDark: '#c98a06',
  beltArrow: '#4a3000',
  express: '#3f8fe0',
  expressDark: '#1f63b0',
  expressArrow: '#ffffff',
  gearRight: '#c62828',
  gearLeft: '#2e7d32',
  wall: '#ffcc00',
  wallEdge: '#1a1a1a',
  laser: '#ff1744',
  laserMount: '#37474f',
  pusher: '#546e7a',
  pusherEdge: '#263238',
  crusher: '#a31515',
  crusherTeeth: '#e0e0e0',
  flag: '#e53935',
  flagPole: '#37474f',
  start: '#2e7d32',
  repair: '#ffffff',
  repairEdge: '#546e7a',
  option: '#fff1bf',
  optionEdge: '#b8860b',
  wrench: '#455a64',
  hammerHandle: '#8d6e63',
  oil: '#1c1c1c',
  repulsor: '#8e24aa',
  repulsorFill: '#f3e5f5',
  chop: '#263238',
  hazard: '#ffcc00',
  ledge: '#3e2723',
  ramp: '#d7ccc8',
  rampEdge: '#5d4037',
  /** Moves by the robot's own program: moved, slid, teleported (001 L121). */
  programmed: '#0d47a1',
  /** Every other move: pushed, carried by a belt (001 L121). */
  pushed: '#1b8a2a',
  shot: '#d50000',
  destroyed: '#d50000',
} as const;

/** Paired portals share a colour (and a label), by pair number. */
export const PORTAL_COLORS = ['#6a1b9a', '#00838f', '#d84315', '#283593', '#ad1457', '#558b2f', '#4e342e', '#f9a825', '#37474f'] as const;

export const FONT_FAMILY = "'DejaVu Sans', Verdana, sans-serif";

/** Cell size in pixels when none is asked for. */
export const DEFAULT_CELL = 56;
