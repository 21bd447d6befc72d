import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CARD_TYPES, COMMENT_HINT, DECK, MAX_ORDER_LINES, RULE_SETS, apiOrders, cardName, cardParts, cardWords, describeOrders, entryName, exampleProgram, gearOf, instruction, orderHelp, orderLines, parseOrders, readEntry, readWebEntry, writeCard, writeProgram, type NotationContext, type Parsed, type RuleSet } from './index.js';

const pbem: NotationContext = {
  rules: RULE_SETS.pbem!, hand: ['F1', 'F2', 'F3', 'B', 'L', 'R', 'U', 'F1', 'L', 'R'], openRegisters: [1, 2, 3, 4, 5], needsProgram: true, poweredDown: false, options: [], name: 'Fred',
};
const classic: NotationContext = {
  rules: RULE_SETS.classic!, hand: ['F2:670', 'R:80', 'B:440', 'L:90', 'U:20', 'F1:500', 'F1:510', 'R:100', 'F3:800'], openRegisters: [1, 2, 3, 4, 5], needsProgram: true, poweredDown: false, options: [], name: 'Fred',
};

const ok = (p: Parsed) => {
  if (!p.ok) assert.fail(JSON.stringify(p.errors));
  return p.orders;
};
const errors = (p: Parsed) => {
  assert.equal(p.ok, false, 'expected a refusal');
  return p.ok ? [] : p.errors;
};

test("001's instructions on one line: F3 F2 F B L R U, F is Move 1", () => {
  assert.deepEqual(ok(parseOrders('F3 F2 F B L', pbem)).program, ['F3', 'F2', 'F1', 'B', 'L']);
  assert.deepEqual(ok(parseOrders('f3, f2, f, b, u', pbem)).program, ['F3', 'F2', 'F1', 'B', 'U']);
});

test('one register per line, numbered or not, in any order when numbered', () => {
  assert.deepEqual(ok(parseOrders('F3\nF2\nF\nB\nL', pbem)).program, ['F3', 'F2', 'F1', 'B', 'L']);
  assert.deepEqual(ok(parseOrders('5: L\n1: F3\nR2 F2\nregister 3 - F\n4. B', pbem)).program, ['F3', 'F2', 'F1', 'B', 'L']);
});

test('card numbers from the dealt hand, with # or without', () => {
  assert.deepEqual(ok(parseOrders('3 1 7 2 5', pbem)).program, ['F3', 'F1', 'U', 'F2', 'L']);
  assert.deepEqual(ok(parseOrders('#3 #1 #7 #2 #10', pbem)).program, ['F3', 'F1', 'U', 'F2', 'R']);
});

test("003's priorities: F2 P670, F2:670, P670 alone, a bare priority, and a type held once", () => {
  assert.deepEqual(ok(parseOrders('F2 P670 R P80 B P440 L P90 U P20', classic)).program, ['F2:670', 'R:80', 'B:440', 'L:90', 'U:20']);
  assert.deepEqual(ok(parseOrders('F2:670, P80, 440, L, F3', classic)).program, ['F2:670', 'R:80', 'B:440', 'L:90', 'F3:800']);
});

test('a classic type held twice needs its priority, and says which ones there are', () => {
  const e = errors(parseOrders('F1 R P80 B L U', classic));
  assert.match(e[0]!.expected, /you hold 2 F1 cards \(F1:500, F1:510\); add the priority/);
});

test('a number that is both a card number and a priority is refused, not guessed', () => {
  const hand = ['U:10', 'R:80', 'B:440', 'L:90', 'F2:670', 'F1:500', 'F1:510', 'R:100', 'F3:800', 'U:20'];
  // "10" is card 10 (U:20) and the priority of card 1 (U:10).
  const e = errors(parseOrders('10 2 3 4 5', { ...classic, hand }));
  assert.match(e[0]!.expected, /both card 10 of your hand \(U:20\) and the priority of U:10: write #10 or P10/);
  assert.deepEqual(ok(parseOrders('#10 2 3 4 5', { ...classic, hand })).program, ['U:20', 'R:80', 'B:440', 'L:90', 'F2:670']);
});

test('cards not held, used twice, or too many of a type are refused with the hand', () => {
  assert.match(errors(parseOrders('F3 F3 F B L', pbem))[0]!.expected, /you hold 1 F3 and the program uses more/);
  assert.match(errors(parseOrders('1 1 2 3 4', pbem))[0]!.expected, /card 1 \(F1\) is used twice/);
  assert.match(errors(parseOrders('F2 P700 R P80 B P440 L P90 U P20', classic))[0]!.expected, /no card of priority 700 in your hand/);
  assert.match(errors(parseOrders('F2 P80 R P80 B L U', classic))[0]!.expected, /priority 80 in your hand is R:80, not F2/);
});

test('the program must fill every open register; locked registers take no card', () => {
  assert.match(errors(parseOrders('F3 F2 F B', pbem))[0]!.expected, /5 cards, one per open register \(1, 2, 3, 4, 5\); found 4/);
  const locked = { ...pbem, openRegisters: [1, 2, 3] };
  assert.deepEqual(ok(parseOrders('F3 F2 F', locked)).program, ['F3', 'F2', 'F1']);
  assert.ok(errors(parseOrders('1: F3\n2: F2\n5: F', locked)).some((e) => /register 5 is locked/.test(e.expected)));
  assert.ok(errors(parseOrders('1: F3\n2: F2', locked)).some((e) => /a card for register 3 too/.test(e.expected)));
});

test('"-" leaves a register to the random fill; "random" leaves them all', () => {
  assert.deepEqual(ok(parseOrders('F3 - F ? L', pbem)).program, ['F3', null, 'F1', null, 'L']);
  assert.deepEqual(ok(parseOrders('random', pbem)).program, [null, null, null, null, null]);
  assert.match(errors(parseOrders('power down', pbem))[0]!.expected, /a program: .*write "random"/);
});

test('power down next turn, stay down, and which of them fits the robot', () => {
  const o = ok(parseOrders('F3 F2 F B L\npower down next turn', pbem));
  assert.equal(o.powerDown, true);
  assert.equal(ok(parseOrders('F3 F2 F B L\nPD', pbem)).powerDown, true);
  const down = { ...pbem, needsProgram: false, poweredDown: true };
  assert.equal(ok(parseOrders('stay down', down)).stayDown, true);
  assert.match(errors(parseOrders('power down', down))[0]!.expected, /write "stay down"/);
  assert.match(errors(parseOrders('F3 F2 F B L\nstay down', pbem))[0]!.expected, /not powered down this turn/);
  assert.match(errors(parseOrders('F3 F2 F B L', down))[0]!.expected, /no program: your robot is powered down/);
});

test('re-entry facing, and powered down', () => {
  assert.deepEqual(ok(parseOrders('F3 F2 F B L\nre-enter facing east', pbem)).reenter, { dir: 'E' });
  assert.deepEqual(ok(parseOrders('F3 F2 F B L\nif destroyed, reenter N powered down', pbem)).reenter, { dir: 'N', poweredDown: true });
  assert.match(errors(parseOrders('F3 F2 F B L\nre-enter facing up', pbem))[0]!.expected, /expected|N, E, S|re-enter facing N|program/);
});

test('the two-wrench choice, and 003\'s conditional order as a condition on damage', () => {
  assert.equal(ok(parseOrders('P670 P80 P440 P90 P20\ntake option', classic)).takeOption, true);
  assert.equal(ok(parseOrders('P670 P80 P440 P90 P20\nrepair', classic)).takeOption, false);
  const c003 = 'If I finish on 2 spanner repair & damage > 3 repair, else take option card.';
  assert.deepEqual(ok(parseOrders(`P670 P80 P440 P90 P20\n${c003}`, classic)).takeOption, { damageAtMost: 3 });
  const api = apiOrders(ok(parseOrders(`P670 P80 P440 P90 P20\n${c003}`, classic)));
  assert.deepEqual([api.takeOption, api.choices], [false, { takeOption: { ifDamageAtMost: 3 } }]);
  assert.deepEqual(ok(parseOrders('P670 P80 P440 P90 P20\ntake option if damage <= 3, else repair', classic)).takeOption, { damageAtMost: 3 });
  assert.deepEqual(ok(parseOrders('P670 P80 P440 P90 P20\ntake option unless damage > 3', classic)).takeOption, { damageAtMost: 3 });
  assert.deepEqual(ok(parseOrders('P670 P80 P440 P90 P20\nif damage >= 5 take option, else repair', classic)).takeOption, { damageAtLeast: 5 });
  assert.match(errors(parseOrders('F3 F2 F B L\ntake option', pbem))[0]!.expected, /hammer site always repairs/);
  assert.match(errors(parseOrders('P670 P80 P440 P90 P20\nrepair if my damage is high, else option', classic))[0]!.expected, /a condition on damage/);
});

test('pbem upgrades in the program: F0, F4, B2 and joined instructions', () => {
  const o = ok(parseOrders('F0 F4 B2 F+L R+F2', { ...pbem, options: ['Brakes', 'Fourth Gear', 'Reverse Gear', 'Crab Legs', 'Dual Processor'] }));
  assert.deepEqual(o.program, ['F0', 'F4', 'B2', 'F1+L', 'R+F2']);
  assert.match(errors(parseOrders('F0 R P80 B P440 L P90 U P20', classic))[0]!.expected, /F0 is a pbem upgrade/);
});

test('classic joined cards and the option choices of OPTIONS.md part 4', () => {
  const options = ['Shield', 'Gyroscopic Stabilizer', 'Tractor Beam', 'Fire Control', 'Brakes', 'Abort Switch', 'Conditional Program', 'Flywheel', 'Recompile', 'Mini Howitzer:3'];
  const o = ok(parseOrders([
    'F1 P500 + R P80, B P440, L P90, U P20, F3 P800',
    'shield back', 'gyro on', 'weapon 3 tractor beam', 'fire control 2 lock 4', 'brakes 2 4', 'abort 4',
    'conditional F1 P510 in register 5', 'flywheel R P100', 'recompile', 'chop shop end draw', 'exchange Brakes, Flywheel in register 3', 'lose mini howitzer',
  ].join('\n'), { ...classic, options }));
  assert.deepEqual(o.program, ['F1:500+R:80', 'B:440', 'L:90', 'U:20', 'F3:800']);
  assert.deepEqual(o.choices, {
    shield: 'back', gyro: true, weapon: { 3: 'Tractor Beam' }, fireControl: { 2: 'lock:4' }, brakes: [2, 4], abort: 4,
    conditional: { card: 'F1:510', register: 5 }, flywheel: 'R:100', recompile: true, chopShop: { register: 'end', draw: true },
    exchange: ['Brakes', { option: 'Flywheel', register: 3 }], lose: 'Mini Howitzer',
  });
  assert.deepEqual(apiOrders(o).choices, o.choices);
});

test('"recompile" alone is read without a program: the new hand comes first', () => {
  const o = ok(parseOrders('recompile', { ...classic, options: ['Recompile'] }));
  assert.deepEqual([o.program, o.choices], [[], { recompile: true }]);
  assert.match(errors(parseOrders('recompile', classic))[0]!.expected, /Recompile/);
});

test("003's conditional weapon order: the beam fires only if the target falls", () => {
  const options = ['Tractor Beam', 'Scrambler'];
  const o = ok(parseOrders('F2 P670 R P80 B P440 L P90 U P20\nweapon 3 tractor beam if the opponent will fall into a pit', { ...classic, options }));
  assert.deepEqual(o.choices.weapon, { 3: { weapon: 'Tractor Beam', if: 'falls' } });
  assert.match(errors(parseOrders('F2 P670 R P80 B P440 L P90 U P20\nweapon 3 scrambler if it falls', { ...classic, options }))[0]!.expected, /moves its target/);
});

test('pbem choices: active upgrades and the circuit breaker threshold', () => {
  const o = ok(parseOrders('F3 F2 F B L\nactive Gyroscopic Stabilizer, pressor beam\ncircuit breaker 6', { ...pbem, options: ['Gyroscopic Stabilizer', 'Pressor Beam', 'Circuit Breaker'] }));
  assert.deepEqual(o.choices, { active: ['Gyroscopic Stabilizer', 'Pressor Beam'], circuitBreaker: 6 });
  assert.match(errors(parseOrders('F3 F2 F B L\nshield back', pbem))[0]!.expected, /Shield is a classic option choice/);
});

test('a choice naming an option the robot does not hold is refused with what it holds', () => {
  assert.match(errors(parseOrders('P670 P80 P440 P90 P20\nshield left', classic))[0]!.expected, /you hold none/);
  assert.match(errors(parseOrders('P670 P80 P440 P90 P20\nweapon 2 Pressor Beam', { ...classic, options: ['Tractor Beam'] }))[0]!.expected, /you hold \(Tractor Beam\), not "pressor beam"/);
});

test('unreadable lines are answered line by line with what was expected; nothing is half read', () => {
  const p = parseOrders('Hi moderator\nF3 F2 F B L\npower dwn', pbem);
  const e = errors(p);
  assert.deepEqual(e.map((x) => [x.line, x.text]), [[1, 'Hi moderator'], [3, 'power dwn']]);
  assert.match(e[0]!.expected, /a program, "1: F2"/);
});

test("003's order sheet: the robot's name and the turn, then the cards", () => {
  const o = ok(parseOrders('Fred Turn 3\nCards: F2 P670 R P80 B P440 L P90 U P20\nIf I finish on 2 spanner repair & damage > 3 repair, else take option card.', classic));
  assert.equal(o.turn, 3);
  assert.deepEqual(o.program, ['F2:670', 'R:80', 'B:440', 'L:90', 'U:20']);
  assert.deepEqual(o.takeOption, { damageAtMost: 3 });
  assert.match(errors(parseOrders('Barney Turn 3\nF2 P670 R P80 B P440 L P90 U P20', classic))[0]!.expected, /this seat races Fred, not "barney"/);
});

test('quoted text, signatures and reply headers are not read; "Turn N" says which turn', () => {
  const body = 'Turn 3\nF3 F2 F B L\n\nOn Sat, 2 Nov 2026, Moderator wrote:\n> Your instructions: F1 F2\n';
  const o = ok(parseOrders(body, pbem));
  assert.equal(o.turn, 3);
  assert.deepEqual(orderLines('F3\n> quoted\n# comment\n-- \nBob\n').map((l) => l.text), ['F3']);
  assert.deepEqual(orderLines('F3 F2 F B L\nSent from my phone').map((l) => l.text), ['F3 F2 F B L']);
});

test('the acknowledgement describes the orders as understood', () => {
  const o = ok(parseOrders('F2 P670 - B P440 L P90 U P20\npower down\nre-enter facing W\nunlock 5', classic));
  assert.deepEqual(describeOrders(o, classic), [
    'Register 1: F2 P670', 'Register 2: left to the random fill', 'Register 3: B P440', 'Register 4: L P90', 'Register 5: U P20',
    'Power down next turn: yes', 'At a two-wrench site: repair', 'Unlock first: register 5', 'If destroyed, re-enter facing W',
  ]);
  assert.deepEqual(apiOrders(o), { program: ['F2:670', null, 'B:440', 'L:90', 'U:20'], powerDown: true, stayDown: false, takeOption: false, unlock: [5], reenter: { dir: 'W' } });
});

test('the starting facing is written "face E" in the first turn only (002 L38-39 "once the first hand is dealt")', () => {
  const first = { ...pbem, choosesFacing: true };
  const o = ok(parseOrders('face east\nF3 F2 F B L', first));
  assert.equal(o.facing, 'E');
  assert.deepEqual(apiOrders(o).facing, 'E');
  assert.ok(describeOrders(o, first).includes('Starting facing: E'));
  assert.equal(ok(parseOrders('starting facing N\nF3 F2 F B L', first)).facing, 'N');
  const later = errors(parseOrders('face E\nF3 F2 F B L', pbem));
  assert.match(later[0]!.expected, /only in the first turn/);
  assert.equal(ok(parseOrders('re-enter facing W\nF3 F2 F B L', first)).facing, undefined, 're-entry is not the starting facing');
});

test('a mail signed without a "-- " line: trailing lines that read as no order are a signature, shown back with how to mark one', () => {
  const p = parseOrders('F3 F2 F B L\npower down\n\nThanks,\nBob', pbem);
  assert.ok(p.ok, JSON.stringify(p));
  assert.deepEqual(p.ignored, ['Thanks,', 'Bob']);
  assert.equal(p.orders.powerDown, true);
  assert.match(COMMENT_HINT, /"-- "/);
  // Before the orders, or between them, such a line is refused, and the refusal says how to mark a comment.
  const e = errors(parseOrders('Thanks, Bob\nF3 F2 F B L', pbem));
  assert.deepEqual(e.map((x) => x.line), [1]);
  assert.ok(e[0]!.expected.includes(COMMENT_HINT));
  // A trailing line that begins as an order is refused, not taken for a signature.
  assert.deepEqual(errors(parseOrders('F3 F2 F B L\nre-enter facing up', pbem)).map((x) => x.text), ['re-enter facing up']);
  assert.deepEqual(errors(parseOrders('P670 P80 P440 P90 P20\ntake option at once', classic)).map((x) => x.line), [2]);
  // With no order at all, nothing is a signature.
  assert.deepEqual(errors(parseOrders('Thanks, Bob', pbem)).map((x) => x.line), [1]);
});

test('"Register 5 -" with no card is refused, not left to the random fill; "Register 5 - random" is', () => {
  const e = errors(parseOrders('1: F3\n2: F2\n3: F\n4: B\nRegister 5 -', pbem));
  assert.deepEqual(e.filter((x) => x.line).map((x) => x.text), ['Register 5 -']);
  assert.match(e.find((x) => x.line)!.expected, /a card after "Register 5 -".*"Register 5 - random"/);
  assert.deepEqual(ok(parseOrders('1: F3\n2: F2\n3: F\n4: B\nRegister 5 - random', pbem)).program, ['F3', 'F2', 'F1', 'B', null]);
  assert.deepEqual(ok(parseOrders('1: F3\n2: F2\n3: F\n4: B\nRegister 5 - L', pbem)).program, ['F3', 'F2', 'F1', 'B', 'L']);
});

test('a power down may be written on the program line', () => {
  const o = ok(parseOrders('F3 F2 pd F B L', pbem));
  assert.deepEqual([o.program, o.powerDown], [['F3', 'F2', 'F1', 'B', 'L'], true]);
  assert.equal(ok(parseOrders('F3 F2 F B L power down', pbem)).powerDown, true);
});

test('the terminal reading: a type takes the first card of it left, and a short or missing program is left to the engine', () => {
  const terminal = { ...classic, firstOfType: true, partial: true };
  assert.deepEqual(ok(parseOrders('F1 F1 R', terminal)).program, ['F1:500', 'F1:510', 'R:80']);
  assert.match(errors(parseOrders('F1 F2 B L U', classic))[0]!.expected, /you hold 2 F1 cards/);
  assert.deepEqual(ok(parseOrders('power down', terminal)).program, []);
  assert.match(errors(parseOrders('U U', terminal))[0]!.expected, /"U": no U card left/);
  assert.match(errors(parseOrders('F3 X9', terminal))[0]!.expected, /a card, not "X9"/);
});

test('API program entries: a card, two joined, an upgrade code only where the rule set plays codes', () => {
  assert.deepEqual(readEntry('F1:500+R:80', RULE_SETS.classic!), { card: 500, joined: 80 });
  assert.equal(typeof readEntry('F0', RULE_SETS.pbem!), 'object');
  for (const bad of ['F0', 'F2', 'F1:500+R:80+L:90', 42, 'F2:671'])
    assert.equal(typeof readEntry(bad, RULE_SETS.classic!), 'string', String(bad));
  assert.match(readEntry('F2:670', RULE_SETS.pbem!) as string, /F1, F2, F3, B, L, R or U, an upgrade code F0, F4, B2/);
});

test("the web's program entries: a card played as its gear's code, and two joined, read back as written", () => {
  for (const e of [{ card: 'F1:500', joined: 'R:80' }, { card: 'F3', coded: true }, { card: 'B', coded: true, joined: 'L' }, { card: 'R:80' }])
    assert.deepEqual(readWebEntry(entryName(e)), e);
  assert.equal(entryName({ card: 'F1', coded: true }), 'F0');
  assert.equal(gearOf('F3:800')?.option, 'Fourth Gear');
});

test('the help on writing orders follows the rule set data, not its name', () => {
  const rows = (r: RuleSet) => orderHelp(r).map(([e]) => e);
  assert.ok(rows(RULE_SETS.classic!).includes('take option'));
  assert.ok(!rows(RULE_SETS.pbem!).includes('take option'));
  assert.ok(rows(RULE_SETS.pbem!).includes('F0 F4 B2 F+L'));
  assert.ok(!rows(RULE_SETS.classic!).includes('F0 F4 B2 F+L'));
  assert.deepEqual(rows({ ...RULE_SETS.classic!, takeOptionChoice: false, gearCodes: true }).slice(-2), ['F0 F4 B2 F+L', '-- ']);
  assert.equal(exampleProgram(RULE_SETS.classic!), 'F2 P670 R P80 B P440 L P90 U P20');
  assert.equal(writeCard('F2:670+R:80'), 'F2 P670+R P80');
});

test('a refusal names the rule sets that allow what this one does not, from their data', () => {
  const noShield = { ...RULE_SETS.classic!, name: 'strict', options: { ...RULE_SETS.classic!.options, choiceKeys: ['unlock'] } };
  assert.match(errors(parseOrders('P670 P80 P440 P90 P20\nshield back', { ...classic, rules: noShield, options: ['Shield'] }))[0]!.expected, /orders of strict; Shield is a classic option choice/);
});

/** A hand dealt by the rule set: distinct deck cards with priorities, or instructions drawn with repeats. */
const handArb = (priorities: boolean) =>
  priorities
    ? fc.shuffledSubarray([...DECK], { minLength: 7, maxLength: 9 }).map((cs) => cs.map(cardName))
    : fc.array(fc.constantFrom(...CARD_TYPES), { minLength: 7, maxLength: 10 }).map((ts) => ts.map((t) => cardName(instruction(t))));

test('every program written by the notation reads back to the same program (property)', () => {
  for (const rules of [RULE_SETS.classic!, RULE_SETS.pbem!]) {
    fc.assert(
      fc.property(
        handArb(rules.priorities).chain((hand) =>
          fc.tuple(
            fc.constant(hand),
            fc.shuffledSubarray(hand.map((_, k) => k), { minLength: 7, maxLength: 7 }),
            fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
            fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
            fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
          ),
        ),
        ([hand, picks, join, random, coded]) => {
          // Each register a card of the hand, left to the random fill, or (with gear codes) played as
          // its code; registers 1 and 2 may have a second card joined.
          const program = picks.slice(0, 5).map((k, r) => {
            if (random[r]) return null;
            const g = gearOf(hand[k]!);
            const main = rules.gearCodes && coded[r] && g ? g.code : hand[k]!;
            return r < 2 && join[r] ? `${main}+${hand[picks[5 + r]!]!}` : main;
          });
          const ctx: NotationContext = { ...(rules.priorities ? classic : pbem), rules, hand };
          const read = parseOrders(writeProgram(program), ctx);
          if (!read.ok) throw new Error(`${writeProgram(program)} against ${hand.join(' ')}: ${JSON.stringify(read.errors)}`);
          assert.deepEqual(read.orders.program, program);
        },
      ),
      { numRuns: 300, seed: 14 },
    );
  }
});

test('a card name is read in its parts, code and priority, for the classic deck and for pbem\'s cards and codes', () => {
  assert.deepEqual(cardParts('F2:670'), ['F2', '670']);
  assert.deepEqual(cardParts('F2'), ['F2', '']);
  assert.deepEqual(cardParts('F0'), ['F0', '']);
  for (const c of DECK) assert.equal(cardParts(cardName(c)).join(':'), cardName(c));
  assert.equal(cardWords('F2:670'), 'Move 2 (670)');
  assert.equal(cardWords('F0'), 'Brakes');
});

test('a hostile mail body (a megabyte of order lines or of junk, an endless line) is answered by one refusal of bounded size, never thrown', () => {
  const size = (p: Parsed) => JSON.stringify(p).length;
  for (const ctx of [pbem, classic]) {
    // Half a million order lines: each reads as a card, and the count of them was spread into Math.max.
    const many = parseOrders('F\n'.repeat(500_000), ctx);
    assert.deepEqual(errors(many).map((e) => e.line), [0]);
    assert.match(errors(many)[0]!.expected, new RegExp(`at most ${MAX_ORDER_LINES} lines of orders`));
    // Ten thousand lines of junk were ten thousand refusals, each with the whole help.
    assert.ok(size(parseOrders('What a lovely day\n'.repeat(10_000), ctx)) < 2_000);
    // One line of a megabyte, alone or after the orders: quoted back in part.
    for (const body of ['F'.repeat(1_000_000), `${ctx.rules.priorities ? 'P670 P80 P440 P90 P20' : 'F3 F2 F B L'}\n${'x'.repeat(1_000_000)}`]) {
      const p = parseOrders(body, ctx);
      assert.ok(size(p) < 4_000, `${body.slice(0, 20)}…: ${size(p)} characters`);
    }
  }
  // As many lines as a mail may hold are still read: the orders, then a long signature.
  const signed = parseOrders(`F3 F2 F B L\n${Array.from({ length: MAX_ORDER_LINES - 1 }, (_, k) => `Footer line ${k}`).join('\n')}`, pbem);
  assert.equal(ok(signed).program.length, 5);
  assert.equal(signed.ignored.length, MAX_ORDER_LINES - 1);
});

test('a line of tens of thousands of full stops or exclamation marks not at its end is read in a moment, not in time growing with its square', () => {
  for (const line of [`${'.'.repeat(30_000)}x`, `${'!.'.repeat(15_000)}@`, `F3 F2 F B L${'!'.repeat(30_000)}:`]) {
    const began = performance.now();
    const p = parseOrders(line, pbem);
    const took = performance.now() - began;
    assert.equal(p.ok, false);
    assert.ok(took < 1_000, `${line.slice(0, 12)}…: ${Math.round(took)} ms`);
  }
  // Full stops and exclamation marks that end a line are still not read.
  assert.deepEqual(ok(parseOrders('F3 F2 F B L!.!', pbem)).program, ['F3', 'F2', 'F1', 'B', 'L']);
});

test('any text read as orders gets orders or refusals naming a line, never an exception (property)', () => {
  const lines = fc.oneof(
    fc.constantFrom('F3 F2 F B L', 'P670 P80 P440 P90 P20', '1: F2', 'Register 5 -', 'power down', 'stay down', 'turn 3', 'Fred turn 1', 're-enter facing N', 'take option',
      'if damage > 3 repair, else take option', 'unlock 5 4', 'shield back', 'weapon 2 Tractor Beam if it falls', 'fire control 1: option Shield', 'brakes 2 4', 'exchange Shield in register 2, Gyro',
      'chop shop end draw', 'conditional F2 P670 register 3', 'random', '-- ', '> quoted', '# comment', 'F+L', 'F2 R F1 L U pd', 'face E', 'recompile', 'active Brakes and Shield'),
    fc.string(), fc.string({ unit: 'binary', maxLength: 600 }), fc.nat(700).map((n) => 'F '.repeat(n)),
  );
  fc.assert(fc.property(fc.array(lines, { maxLength: 40 }), fc.constantFrom(pbem, classic, { ...classic, options: ['Shield', 'Tractor Beam'], firstOfType: true, partial: true }), (ls, ctx) => {
    const p = parseOrders(ls.join('\n'), ctx);
    if (p.ok) return;
    for (const e of p.errors) {
      assert.ok(Number.isInteger(e.line) && e.line >= 0 && typeof e.text === 'string' && typeof e.expected === 'string' && e.expected.length > 0);
      assert.ok(e.text.length <= 121);
    }
  }), { numRuns: 400, seed: 29 });
});
