import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Floor, type Board, type GameEvent } from '../../engine/src/index.js';
import { race, turn } from '../../engine/src/testing.js';
import { board, ELEMENTS_JSON, L_COURSE_JSON, turnExample } from './fixtures.js';
import { LEGEND_KINDS } from './legend.js';
import { ROBOT_DESIGNS, fanned } from './robots.js';
import { renderSvg } from './render.js';
import { COLORS } from './theme.js';

/** Every `<g>` element whose opening tag has all the given attributes, whole (nested groups included). */
function groups(svg: string, attrs: Record<string, string | number>): string[] {
  const out: string[] = [];
  const open = /<g\b[^>]*>/g;
  for (let m = open.exec(svg); m; m = open.exec(svg)) {
    const tag = m[0];
    if (!Object.entries(attrs).every(([k, v]) => tag.includes(` ${k}="${v}"`))) continue;
    if (tag.endsWith('/>')) {
      out.push(tag);
      continue;
    }
    let depth = 0;
    const inner = /<g\b[^>]*?(\/?)>|<\/g>/g;
    inner.lastIndex = m.index;
    for (let n = inner.exec(svg); n; n = inner.exec(svg)) {
      if (n[0] === '</g>') depth--;
      else if (n[1] !== '/') depth++;
      if (depth === 0) {
        out.push(svg.slice(m.index, n.index + n[0].length));
        break;
      }
    }
  }
  return out;
}
const count = (svg: string, attrs: Record<string, string | number>): number => groups(svg, attrs).length;

const elements = (): Board => board(ELEMENTS_JSON);

test('the same input gives byte-identical SVG', () => {
  const t = turnExample();
  const opts = { state: t.state, events: t.events, title: 'Turn 1', legend: true };
  assert.equal(renderSvg(t.board, opts), renderSvg(t.board, opts));
  assert.equal(renderSvg(elements()), renderSvg(elements()));
  const svg = renderSvg(elements(), { legend: true });
  assert.doesNotMatch(svg, /NaN|undefined|Infinity|-0[ ,"]/);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
});

test('the picture is sized by the cell size', () => {
  const b = elements();
  const svg = renderSvg(b, { cell: 50, coordinates: false });
  // 10 x 8 cells of 50 px and a margin of 30 px all round.
  assert.match(svg, /width="560" height="460"/);
  assert.match(renderSvg(b, { cell: 64 }), /data-cell="64"/);
});

test('every cell kind is drawn, with its direction or label', () => {
  const svg = renderSvg(elements());
  const b = elements();
  assert.equal(count(svg, { 'data-kind': 'floor' }) + count(svg, { 'data-kind': 'belt' }) + count(svg, { 'data-kind': 'pit' }) +
    count(svg, { 'data-kind': 'gear' }) + count(svg, { 'data-kind': 'wrench' }) + count(svg, { 'data-kind': 'wrench2' }) +
    count(svg, { 'data-kind': 'oil' }) + count(svg, { 'data-kind': 'portal' }) + count(svg, { 'data-kind': 'repulsor' }) +
    count(svg, { 'data-kind': 'chopshop' }), b.width * b.height);
  assert.equal(count(svg, { 'data-kind': 'pit' }), 2);
  assert.equal(count(svg, { class: 'belt', 'data-kind': 'belt' }), 9);
  assert.equal(count(svg, { class: 'belt express', 'data-kind': 'belt' }), 13);
  assert.equal(count(svg, { 'data-kind': 'belt', 'data-x': 3, 'data-y': 2, 'data-dir': 'S', class: 'belt express' }), 1);
  assert.equal(count(svg, { 'data-kind': 'gear', class: 'gear right', 'data-turn': '+' }), 1);
  assert.equal(count(svg, { 'data-kind': 'gear', class: 'gear left', 'data-turn': '-' }), 1);
  assert.ok(groups(svg, { 'data-kind': 'gear', 'data-turn': '+' })[0]!.includes('>+</text>'));
  assert.ok(groups(svg, { 'data-kind': 'gear', 'data-turn': '-' })[0]!.includes('>\u2212</text>'));
  assert.equal(count(svg, { 'data-kind': 'wrench', 'data-x': 8, 'data-y': 2 }), 1);
  assert.equal(count(svg, { 'data-kind': 'wrench2', 'data-x': 9, 'data-y': 3 }), 1);
  assert.equal(count(svg, { 'data-kind': 'oil' }), 1);
  assert.equal(count(svg, { 'data-kind': 'repulsor' }), 1);
  assert.equal(count(svg, { 'data-kind': 'chopshop' }), 1);
});

test('belts fed from a side are drawn turning, and merging when also fed from behind', () => {
  const svg = renderSvg(elements());
  const shape = (x: number, y: number) => /data-shape="(\w+)"/.exec(groups(svg, { 'data-kind': 'belt', 'data-x': x, 'data-y': y })[0]!)![1];
  assert.equal(shape(2, 0), 'turn'); // fed from the south by (2,1) ^, runs east
  assert.equal(shape(4, 0), 'turn');
  assert.equal(shape(3, 2), 'turn'); // express, fed from the west
  assert.equal(shape(4, 3), 'merge'); // fed from the north and from behind
  assert.equal(shape(3, 3), 'merge');
  assert.equal(shape(3, 0), 'straight');
  assert.equal(shape(0, 2), 'straight');
  // A turn draws a curve; a straight belt a line; express belts two chevrons.
  assert.match(groups(svg, { 'data-kind': 'belt', 'data-x': 2, 'data-y': 0 })[0]!, /<path d="M[^"]*Q/);
  assert.doesNotMatch(groups(svg, { 'data-kind': 'belt', 'data-x': 3, 'data-y': 0 })[0]!, /<path/);
  assert.equal(groups(svg, { 'data-kind': 'belt', 'data-x': 0, 'data-y': 2 })[0]!.match(/<polyline/g)!.length, 2);
  assert.equal(groups(svg, { 'data-kind': 'belt', 'data-x': 3, 'data-y': 0 })[0]!.match(/<polyline/g)!.length, 1);
  // A wall between two belts stops the feed.
  const walled = board({ grid: ['>  v', '.  .'], walls: ['0,0 E'] });
  assert.match(renderSvg(walled), /data-x="1" data-y="0" data-dir="S" data-shape="straight"/);
});

test('portal pairs share a label and a colour', () => {
  const svg = renderSvg(elements());
  const one = groups(svg, { 'data-kind': 'portal', 'data-pair': 1 });
  const two = groups(svg, { 'data-kind': 'portal', 'data-pair': 2 });
  assert.equal(one.length, 2);
  assert.equal(two.length, 2);
  for (const g of one) assert.ok(g.includes('>T1</text>'));
  for (const g of two) assert.ok(g.includes('>T2</text>'));
  const fill = (g: string) => /<circle [^>]*fill="(#[0-9a-f]{6})"/.exec(g)![1];
  assert.equal(fill(one[0]!), fill(one[1]!));
  assert.notEqual(fill(one[0]!), fill(two[0]!));
});

test('walls, lasers and their beams, pushers and crushers with their registers', () => {
  const b = elements();
  const svg = renderSvg(b);
  // Walls listed, and the walls behind the 3 lasers and 4 pushers; each edge drawn once.
  assert.equal(count(svg, { 'data-kind': 'wall' }), 6 + 3 + 4);
  assert.equal(count(svg, { 'data-kind': 'wall', 'data-x': 1, 'data-y': 3, 'data-side': 'N' }) + count(svg, { 'data-kind': 'wall', 'data-x': 1, 'data-y': 2, 'data-side': 'S' }), 1);
  assert.equal(count(svg, { 'data-kind': 'laser' }), 3);
  const beams = groups(svg, { 'data-kind': 'beam' });
  assert.equal(beams.length, 3);
  // 1, 2 and 3 parallel lines, over a faint glow; each stops at a wall or the edge.
  assert.deepEqual(beams.map((g) => g.match(/<line/g)!.length - 1), [1, 2, 3]);
  assert.match(beams[0]!, /data-from="9,5" data-to="7,5"/); // the wall on 6,5 E
  assert.match(beams[1]!, /data-from="0,1" data-to="0,7"/); // the south edge
  assert.match(beams[2]!, /data-from="8,0" data-to="8,6"/); // the wall on 8,6 S
  const pushers = groups(svg, { 'data-kind': 'pusher' });
  assert.equal(pushers.length, 4);
  assert.match(pushers[1]!, /data-dir="S" data-registers="2 4"/);
  assert.ok(pushers[1]!.includes('>2 4</text>'));
  // A plate on a west or east wall writes its registers one under the other.
  assert.match(pushers[0]!, /data-dir="E" data-registers="1 3 5"/);
  assert.deepEqual([...pushers[0]!.matchAll(/>(\d)<\/text>/g)].map((m) => m[1]), ['1', '3', '5']);
  const crushers = groups(svg, { 'data-kind': 'crusher' });
  assert.equal(crushers.length, 3);
  assert.ok(crushers[0]!.includes('data-registers="2 4"') && crushers[0]!.includes('>2 4</text>'));
  assert.ok(crushers[2]!.includes('>5</text>'));
});

test('flags are numbered; the start, ledges and ramps are drawn', () => {
  const svg = renderSvg(elements());
  const flags = groups(svg, { 'data-kind': 'flag' });
  assert.equal(flags.length, 3);
  flags.forEach((g, k) => {
    assert.ok(g.includes(`data-flag="${k + 1}"`));
    assert.ok(g.includes(`>${k + 1}</text>`));
  });
  assert.match(svg, /data-kind="flag" data-flag="1" data-x="7" data-y="6"/);
  assert.equal(count(svg, { 'data-kind': 'start', 'data-x': 4, 'data-y': 6 }), 1);
  assert.ok(groups(svg, { 'data-kind': 'start' })[0]!.includes('>START</text>'));
  assert.equal(count(svg, { 'data-kind': 'ledge' }), 3);
  assert.equal(count(svg, { 'data-kind': 'ledge', 'data-x': 6, 'data-y': 6, 'data-side': 'E' }), 1);
  assert.equal(count(svg, { 'data-kind': 'ramp' }), 1);
  assert.equal(count(svg, { 'data-kind': 'ramp', 'data-x': 8, 'data-y': 3, 'data-side': 'S' }), 1);
  // A board without them has none.
  const bare = renderSvg(board({ grid: ['. .'] }));
  for (const k of ['flag', 'start', 'ledge', 'ramp', 'wall', 'laser', 'beam', 'pusher', 'crusher', 'robot', 'move'])
    assert.equal(count(bare, { 'data-kind': k }), 0, k);
});

test('void cells are left as background, and so is any floor value the renderer does not know', () => {
  const b = board(L_COURSE_JSON);
  const svg = renderSvg(b);
  let floors = 0;
  for (let i = 0; i < b.floor.length; i++) if (b.floor[i] !== Floor.Void) floors++;
  assert.equal(floors, 64 - 12);
  const cells = groups(svg, { class: 'cells' })[0]!;
  assert.equal((cells.match(/<g [^>]*data-x=/g) ?? []).length, floors);
  assert.equal(count(svg, { 'data-x': 5, 'data-y': 0 }), 0);
  assert.match(svg, /data-kind="outline"/);
  const odd = board({ grid: ['. .', '. .'] });
  odd.floor[0] = 200;
  const s2 = renderSvg(odd);
  assert.equal(count(s2, { 'data-x': 0, 'data-y': 0 }), 0);
  assert.equal(count(s2, { 'data-kind': 'floor' }), 3);
});

test('robots: the active ones, facing, design, damage; virtual ones see-through and dashed', () => {
  const t = turnExample();
  const svg = renderSvg(t.board, { state: t.state });
  const robots = groups(svg, { 'data-kind': 'robot' });
  assert.equal(robots.length, 4); // Cid is destroyed
  assert.equal(count(svg, { 'data-kind': 'robot', 'data-name': 'Cid' }), 0);
  const ava = groups(svg, { 'data-kind': 'robot', 'data-name': 'Ava' })[0]!;
  assert.match(ava, /class="robot" data-kind="robot" data-robot="0" data-name="Ava" data-design="Rivet" data-x="4" data-y="1" data-dir="E" data-damage="1"/);
  assert.match(ava, /data-design="Rivet"/);
  assert.ok(ava.includes('>1</text>')); // damage
  assert.match(ava, /<g class="body" transform="rotate\(90 0 0\)"/); // the body, turned east
  const dee = groups(svg, { 'data-kind': 'robot', 'data-name': 'Dee' })[0]!;
  assert.match(dee, /class="robot virtual"/);
  assert.ok(dee.includes(`fill="${ROBOT_DESIGNS[3]!.color}" stroke="#212121" stroke-width="2" fill-opacity="0.5"`));
  assert.ok(ava.includes(`fill="${ROBOT_DESIGNS[0]!.color}" stroke=`));
  assert.match(dee, /stroke-dasharray/);
  assert.doesNotMatch(ava, /stroke-dasharray/);
  // Sharing Bob's square, Dee is fanned beside him, smaller; Bob stays at the centre.
  assert.match(dee, /scale\(0.7\)/);
  assert.match(groups(svg, { 'data-kind': 'robot', 'data-name': 'Bob' })[0]!, /scale\(0.85\)/);
  assert.ok(groups(svg, { 'data-kind': 'robot', 'data-name': 'Eve' })[0]!.includes('>PD</text>'));
  // No damage, no badge.
  const s2 = renderSvg(t.board, { state: { ...t.state, robots: [{ ...t.state.robots[0]!, damage: 0 }] } });
  assert.doesNotMatch(groups(s2, { 'data-kind': 'robot' })[0]!, /#c62828/);
});

const arrowColors = (g: string): { blue: boolean; green: boolean } => ({
  blue: g.includes(`"${COLORS.programmed}"`),
  green: g.includes(`"${COLORS.pushed}"`),
});

test('programmed moves are blue arrows, pushes and belt moves green, rotations none', () => {
  const b = board({ grid: ['. . . .', '. . . .'] });
  const ev = (e: GameEvent[]) => renderSvg(b, { events: e });
  const moved = groups(ev([{ type: 'moved', robot: 0, from: [0, 0], to: [1, 0] }]), { 'data-kind': 'move' });
  assert.equal(moved.length, 1);
  assert.deepEqual(arrowColors(moved[0]!), { blue: true, green: false });
  assert.match(moved[0]!, /class="move programmed"/);
  for (const type of ['slid', 'teleported'] as const) {
    const g = groups(ev([{ type, robot: 0, from: [0, 0], to: [2, 1] }]), { 'data-kind': 'move' });
    assert.deepEqual(arrowColors(g[0]!), { blue: true, green: false }, type);
  }
  const pushed = groups(ev([{ type: 'pushed', robot: 1, from: [1, 0], to: [2, 0], by: { robot: 0 } }]), { 'data-kind': 'move' });
  assert.deepEqual(arrowColors(pushed[0]!), { blue: false, green: true });
  assert.match(pushed[0]!, /class="move pushed"/);
  const carried = groups(ev([{ type: 'carried', robot: 0, from: [1, 1], to: [1, 0], express: true }]), { 'data-kind': 'move' });
  assert.deepEqual(arrowColors(carried[0]!), { blue: false, green: true });
  const turned = ev([
    { type: 'turned', robot: 0, from: 0, to: 1, by: 'card' },
    { type: 'turned', robot: 0, from: 1, to: 2, by: 'gear' },
    { type: 'turned', robot: 0, from: 2, to: 3, by: 'belt' },
  ]);
  assert.equal(count(turned, { 'data-kind': 'move' }), 0);
  assert.ok(!turned.includes(COLORS.programmed) && !turned.includes(COLORS.pushed));
});

test('a straight run of one move card is one arrow; another register starts a new one', () => {
  const b = board({ grid: ['. . . .', '. . . .'] });
  const svg = renderSvg(b, {
    events: [
      { type: 'registerBegan', register: 1 },
      { type: 'moved', robot: 0, from: [0, 0], to: [1, 0] },
      { type: 'moved', robot: 0, from: [1, 0], to: [2, 0] },
      { type: 'registerBegan', register: 2 },
      { type: 'moved', robot: 0, from: [2, 0], to: [3, 0] },
      { type: 'carried', robot: 0, from: [3, 0], to: [3, 1], express: false },
    ],
  });
  const moves = groups(svg, { 'data-kind': 'move' });
  assert.equal(moves.length, 3);
  assert.match(moves[0]!, /data-register="1" data-from="0,0" data-to="2,0"/);
  assert.match(moves[1]!, /data-register="2" data-from="2,0" data-to="3,0"/);
  assert.match(moves[2]!, /data-event="carried" data-robot="0" data-register="2" data-from="3,0" data-to="3,1"/);
});

test('the events of a turn played by the engine: a card move in blue, the belt in green, the laser shot in red', () => {
  const g = turn(race({ grid: ['. > . .', '. . . .'], lasers: [{ x: 2, y: 1, dir: 'N' }] }, [{ name: 'A', x: 0, y: 0, dir: 'E' }]), {
    programs: { A: ['F1:490'] },
    registers: 1,
  });
  const b = board({ grid: ['. > . .', '. . . .'], lasers: [{ x: 2, y: 1, dir: 'N' }] });
  const svg = renderSvg(b, { state: g.state, events: g.events });
  const blue = groups(svg, { 'data-kind': 'move', class: 'move programmed' });
  const green = groups(svg, { 'data-kind': 'move', class: 'move pushed' });
  assert.equal(blue.length, 1);
  assert.match(blue[0]!, /data-from="0,0" data-to="1,0"/);
  assert.equal(green.length, 1);
  assert.match(green[0]!, /data-event="carried" data-robot="0" data-register="1" data-from="1,0" data-to="2,0"/);
  const shots = groups(svg, { 'data-kind': 'shot' });
  assert.equal(shots.length, 1);
  assert.match(shots[0]!, /data-robot="0" data-points="1" data-from="2,1" data-to="2,0"/);
  assert.ok(shots[0]!.includes(COLORS.shot));
  assert.match(groups(svg, { 'data-kind': 'robot' })[0]!, /data-x="2" data-y="0"/);
});

test('shots are drawn to where the target stood then; a destroyed robot gets a cross', () => {
  const t = turnExample();
  const svg = renderSvg(t.board, { state: t.state, events: t.events });
  const shots = groups(svg, { 'data-kind': 'shot' });
  assert.equal(shots.length, 2);
  assert.match(shots[0]!, /data-robot="4" data-points="1" data-from="5,4" data-to="5,1"/);
  const crosses = groups(svg, { 'data-kind': 'destroyed' });
  assert.equal(crosses.length, 1);
  assert.match(crosses[0]!, /data-robot="2" data-cause="pit" data-x="1" data-y="3"/);
  // Robots are drawn over the arrows.
  assert.ok(svg.indexOf('class="overlay"') < svg.indexOf('class="robots"'));
});

test('the legend names every kind of element, and only when asked', () => {
  const with_ = renderSvg(elements(), { legend: true });
  const without = renderSvg(elements());
  assert.equal(count(without, { 'data-kind': 'legend' }), 0);
  const entries = groups(with_, { 'data-kind': 'legend-entry' });
  assert.equal(entries.length, LEGEND_KINDS.length);
  for (const k of ['belt', 'express', 'turn', 'gear+', 'gear-', 'wrench', 'wrench2', 'oil', 'portal', 'repulsor', 'chopshop', 'flag',
    'start', 'wall', 'laser', 'pusher', 'crusher', 'ledge', 'ramp', 'robot', 'virtual', 'programmed', 'pushed', 'shot', 'pit'])
    assert.equal(count(with_, { 'data-kind': 'legend-entry', 'data-entry': k }), 1, k);
  assert.ok(groups(with_, { 'data-entry': 'programmed' })[0]!.includes(COLORS.programmed));
  assert.ok(groups(with_, { 'data-entry': 'pushed' })[0]!.includes(COLORS.pushed));
  const h = (s: string) => Number(/height="(\d+)"/.exec(s)![1]);
  assert.ok(h(with_) > h(without));
});

test('the title is escaped, and given as the SVG title too', () => {
  const svg = renderSvg(board({ grid: ['.'] }), { title: 'Risky <Exchange> & "co"' });
  assert.ok(svg.includes('<title>Risky &lt;Exchange&gt; &amp; &quot;co&quot;</title>'));
  assert.ok(svg.includes('>Risky &lt;Exchange&gt; &amp; &quot;co&quot;</text>'));
  const named = renderSvg(board({ grid: ['.'] }), { state: { ...turnExample().state, robots: [{ ...turnExample().state.robots[0]!, x: 0, y: 0, name: '<b>' }] } });
  assert.match(named, /data-name="&lt;b&gt;"/);
  assert.ok(named.includes('>&lt;b&gt; (Rivet)</text>'), 'the robots\' legend escapes the name');
});

test('each robot is drawn in its own design, the one its player chose, and named in a legend under the board', () => {
  const t = turnExample();
  const robots = t.state.robots.map((r, i) => ({ ...r, robot: (i + 5) % 8 }));
  const svg = renderSvg(t.board, { state: { robots, you: 1 } });
  const designs = groups(svg, { 'data-kind': 'robot' }).map((g) => /data-design="(\w+)"/.exec(g)![1]);
  assert.deepEqual(designs, ['Widget', 'Cog', 'Rivet', 'Bolt'], 'Cid (Servo) is destroyed');
  assert.equal(new Set(ROBOT_DESIGNS.map((d) => d.name)).size, 8);
  assert.equal(new Set(ROBOT_DESIGNS.map((d) => d.color)).size, 8);
  const legend = groups(svg, { 'data-kind': 'robot-legend' });
  assert.equal(legend.length, robots.length, 'every robot of the race, destroyed ones too');
  assert.ok(legend[2]!.includes('>Cid (Servo)</text>'));
  // Only the viewer's robot wears the gold ring.
  assert.equal((svg.match(/class="mine"/g) ?? []).length, 1);
  assert.match(groups(svg, { 'data-kind': 'robot', 'data-name': 'Bob' })[0]!, /class="mine"/);
  assert.equal(count(renderSvg(t.board, { state: t.state, robotLegend: false }), { 'data-kind': 'robot-legend' }), 0);
});

test('robots sharing a square are fanned so each is whole, apart (bodies not touching) and at least 0.7 of a lone robot\'s size, however many share it', () => {
  const r = (x: number, virtual: boolean) => ({ x, y: 0, status: 'active', virtual });
  const places = fanned([r(0, true), r(0, true), r(0, true), r(1, false), r(0, true)]);
  assert.deepEqual(places[3], { dx: 0, dy: 0, scale: 1 });
  // A body's radius at scale 1 is a third of a square (robotBody).
  const apart = (list: { dx: number; dy: number; scale: number }[]) => {
    for (let a = 0; a < list.length; a++) {
      assert.ok(list[a]!.scale >= 0.7, `robot ${a} drawn at ${list[a]!.scale}`);
      for (let b = a + 1; b < list.length; b++) {
        const d = Math.hypot(list[a]!.dx - list[b]!.dx, list[a]!.dy - list[b]!.dy);
        assert.ok(d >= 0.34 * (list[a]!.scale + list[b]!.scale) - 1e-3, `robots ${a} and ${b} of ${list.length} overlap: ${d}`);
      }
    }
  };
  apart([0, 1, 2, 4].map((i) => places[i]!));
  for (let n = 2; n <= 8; n++) {
    apart(fanned(Array.from({ length: n }, () => r(0, true))).map((p) => p!));
    apart(fanned([r(0, false), ...Array.from({ length: n - 1 }, () => r(0, true))]).map((p) => p!));
  }
  assert.equal(fanned([{ ...r(0, false), status: 'destroyed' }])[0], null);
});
