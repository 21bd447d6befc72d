import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skeleton } from './confusables.js';
import { lookalike } from './setup.js';

test('Cyrillic, Greek and Latin look-alikes give the name they look like', () => {
  const alike: [string, string][] = [
    ['\u0410lice', 'Alice'], // Cyrillic А
    ['B\u043eb', 'Bob'], // Cyrillic о
    ['\u0420\u0430\u0443', 'Pay'], // Cyrillic Р а у
    ['\u0397ans', 'Hans'], // Greek Η
    ['\u039c\u03b1x', 'Max'], // Greek Μ α
    ['\u0399vy', 'lvy'], // Greek Ι, drawn like a small L
    ['Ivy', 'lvy'], // a capital I and a small L
    ['B0b', 'Bob'],
    ['Kirn', 'Kim'],
    ['\u0456ris', 'iris'], // Cyrillic і
    ['\u0425\u0435\u0440\u043e', 'Xepo'], // Cyrillic Х е р о
    ['\u04ba\u0430ns', 'hans'], // Cyrillic Һ: its small letter һ is drawn like h
    ['\u0251lice', 'alice'], // Latin alpha ɑ
    ['\u0131ris', 'iris'], // dotless ı
    ['vvill', 'will'],
    ['clan', 'dan'],
    ['\u13aava', 'Ava'], // Cherokee Ꭺ, beyond the Cyrillic and Greek of a hand-made table
  ];
  for (const [a, b] of alike) assert.equal(skeleton(a), skeleton(b), `${a} ~ ${b}`);
  assert.equal(lookalike('\u0410lice'), lookalike('Alice'));
  assert.equal(lookalike('\u0410.L\u0456ce'), lookalike('alice'));
});

test('names that only share letters of other scripts are not taken for one another', () => {
  const apart: [string, string][] = [
    ['\u0416\u0443\u043a', 'Zhuk'], // Cyrillic Ж has no Latin look-alike
    ['\u0394\u03b5\u03bb\u03c4\u03b1', 'Delta'], // Greek Δ is no D
    ['Ava', 'Eva'],
    ['Bob', 'Rob'],
    ['Ann', 'Anna'],
  ];
  for (const [a, b] of apart) assert.notEqual(lookalike(a), lookalike(b), `${a} vs ${b}`);
});
