import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classic, OPTION_CARDS, optionOrders, parseOrders, pbem, UPGRADES, type NotationContext } from '../../engine/src/index.js';

// Hands that hold every card the examples name.
const HANDS = {
  classic: ['F1:500', 'R:80', 'F2:670', 'L:90', 'U:20', 'B:440', 'F1:510', 'R:100', 'F3:800'],
  pbem: ['F1', 'L', 'F2', 'R', 'B', 'U', 'F3', 'F1', 'F2'],
};

test('a player who gains an option is told how to order it, and every example given is read by the notation as written', () => {
  for (const [rules, names] of [[classic, OPTION_CARDS], [pbem, UPGRADES]] as const) {
    for (const option of names) {
      const help = optionOrders(option, rules);
      assert.equal(help.option, option);
      assert.ok(help.how.length > 10, `${option}: "${help.how}"`);
      const ctx: NotationContext = { rules, hand: HANDS[rules.name as 'classic' | 'pbem'], openRegisters: [1, 2, 3, 4, 5], needsProgram: true, poweredDown: false, options: [option], name: 'Fred' };
      // An option's line goes with a program, unless it is the program.
      const program = rules.priorities ? 'F2 P670 L P90 U P20 B P440 R P80' : 'F2 L U B R';
      for (const example of help.examples) {
        const alone = parseOrders(example, ctx);
        const parsed = alone.ok ? alone : parseOrders(`${example}\n${program}`, ctx);
        assert.ok(parsed.ok, `${rules.name} ${option}: "${example}" is not read: ${JSON.stringify(!parsed.ok && parsed.errors)}`);
      }
    }
  }
});

test('options that need orders have examples; those that work by themselves say so', () => {
  assert.deepEqual(optionOrders('Shield', classic).examples, ['shield back']);
  assert.deepEqual(optionOrders('Mini Howitzer:3', classic).examples, ['weapon 3 Mini Howitzer']);
  assert.deepEqual(optionOrders('Brakes', pbem).examples, ['F0 F2 F R L']);
  assert.deepEqual(optionOrders('Tractor Beam', pbem).examples, ['active Tractor Beam']);
  assert.match(optionOrders('Ramming Gear', pbem).how, /no orders: it works by itself/);
  assert.match(optionOrders('Ramming Gear', classic).how, /exchange Ramming Gear/);
});
