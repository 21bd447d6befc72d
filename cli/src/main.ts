/** The `roborally` command line. */
import { Command, CommanderError } from 'commander';
import { runCheck } from './check.js';
import { exportTiled, importTiled, listBoards, showBoard, validateCourseFile } from './boards.js';
import { loadCourse, writeProblem } from '../../boards/src/index.js';
import { LEVELS, type Level } from '../../bots/src/index.js';
import { RULE_SETS } from '../../engine/src/index.js';
import { DEFAULT_BOTS, DEFAULT_NAME, DEFAULT_SEED, MAX_BOTS, runPlay, wholeNumber } from './play.js';
import { RACE_DEFAULTS, RACE_MAX_BOTS, parseLevels, parseRules, runRace } from './race.js';

/** What the command exits with when something unforeseen throws (sysexits' EX_SOFTWARE). */
export const INTERNAL_ERROR = 70;

/** What the command exits with when its standard output cannot be written (sysexits' EX_IOERR). */
export const OUTPUT_ERROR = 74;

/**
 * Watches standard output for the command's run (bin/roborally.js): when it cannot be written (a
 * full disk, a closed descriptor) the command says so in one line on standard error and exits with
 * OUTPUT_ERROR, where console.log would lose the output in silence and exit 0. A reader that went
 * away (EPIPE, `| head`) is no error: the rest of the output is dropped quietly.
 */
export function watchOutput(): void {
  let lost: NodeJS.ErrnoException | null = null;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (lost) return;
    lost = e;
    if (e.code !== 'EPIPE') process.stderr.write(`roborally: standard output: ${writeProblem('standard output', e)}\n`);
  });
  process.on('exit', () => {
    if (lost && lost.code !== 'EPIPE') process.exitCode = OUTPUT_ERROR;
  });
}

/**
 * Runs the command; returns the exit code. Whatever goes wrong ends in a one-line message on
 * standard error and an exit code, never a stack trace.
 */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (e) {
    process.stderr.write(`roborally: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return INTERNAL_ERROR;
  }
}

async function run(argv: readonly string[]): Promise<number> {
  let code = 0;
  const program = new Command('roborally')
    .description('An unofficial RoboRally rules engine and race server')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program
    .command('check')
    .description('run conformance scenarios: every *.json below each directory')
    .argument('<paths...>', 'scenario files or directories')
    .option('--json', 'print each scenario as a JSON line with its final state')
    .option('--show', 'print the board and robots as text after each register')
    .action((paths: string[], opts: { json?: boolean; show?: boolean }) => {
      code = runCheck(paths, opts, (line) => console.log(line));
    });
  program
    .command('play')
    .description('race in the terminal on a small built-in board; reads one program per line when stdin is not a terminal')
    .option('--seed <n>', 'seed for the deal and the bots\' programs', wholeNumber(0), DEFAULT_SEED)
    .option('--turns <n>', 'stop after this many turns (default: until someone wins or all are out)', wholeNumber(1))
    .option('--bots <n>', `random-program opponents, 0 to ${MAX_BOTS}`, wholeNumber(0, MAX_BOTS), DEFAULT_BOTS)
    .option('--name <name>', 'your robot\'s name', DEFAULT_NAME)
    .option('--course <name-or-file>', 'race on a course (see `roborally boards`) instead of the built-in board')
    .action(async (opts: { seed: number; turns?: number; bots: number; name: string; course?: string }) => {
      if (opts.course !== undefined) {
        const loaded = loadCourse(opts.course);
        if (!loaded.ok) {
          console.error(`roborally play: ${loaded.error.field}: ${loaded.error.message}`);
          code = 2;
          return;
        }
        code = await runPlay({ ...opts, board: loaded.value.course.layout });
      } else code = await runPlay(opts);
    });
  const print = (line: string) => console.log(line);
  const out = { print, problem: (line: string) => console.error(line) };
  program
    .command('race')
    .description('a whole race of bots on a course, nobody at the keyboard: a progress bar, then the finishing order, turns and deaths')
    .requiredOption('--course <name-or-file>', 'the course (see `roborally boards`)')
    .option('--bots <n>', `robots in the race, 1 to ${RACE_MAX_BOTS}`, wholeNumber(1, RACE_MAX_BOTS), RACE_DEFAULTS.bots)
    .option('--level <level>', `${LEVELS.join(', ')}, or one per robot separated by commas`, parseLevels, [RACE_DEFAULTS.level])
    .option('--seed <n>', 'seed for the deal and the bots', wholeNumber(0), RACE_DEFAULTS.seed)
    .option('--turns <n>', 'stop after this many turns at the latest', wholeNumber(1), RACE_DEFAULTS.turns)
    .option('--rules <rules>', `${Object.keys(RULE_SETS).join(' or ')} (default: the first the course has starts for)`, parseRules)
    .action((opts: { course: string; bots: number; level: Level[]; seed: number; turns: number; rules?: string }) => {
      const tty = process.stderr.isTTY;
      code = runRace(opts, {
        print: (line) => {
          if (tty) process.stderr.write('\r\x1b[K');
          print(line);
        },
        problem: (line) => {
          if (tty) process.stderr.write('\r\x1b[K');
          out.problem(line);
        },
        ...(tty ? { progress: (line: string) => process.stderr.write(`\r\x1b[K${line}`) } : {}),
      });
    });
  program
    .command('boards')
    .description('list the boards and courses')
    .action(() => {
      code = listBoards(print);
    });
  program
    .command('show')
    .description('draw a board or a course, by name or file')
    .argument('<name-or-file>', 'a board or course name, or a .json file')
    .option('--svg <file>', 'write an SVG picture')
    .option('--png <file>', 'write a PNG picture')
    .action((what: string, opts: { svg?: string; png?: string }) => {
      code = showBoard(what, opts, out);
    });
  program
    .command('course')
    .description('work with course files')
    .command('validate')
    .description('check a course: boards that overlap or do not meet, badly placed flags and start, unreachable flags')
    .argument('<files...>', 'course files or names')
    .action((files: string[]) => {
      // A loop, not Math.max(...): spread over some 150,000 files overflows the stack.
      for (const f of files) code = Math.max(code, validateCourseFile(f, print));
    });
  const tiled = program.command('tiled').description('board files to and from the Tiled map editor (docs/tiled.md)');
  tiled
    .command('import')
    .description('read a Tiled map (.tmj) drawn with the project\'s tileset as a board file')
    .argument('<map>', 'a Tiled JSON map')
    .option('--out <file>', 'write the board file here instead of printing it')
    .action((map: string, opts: { out?: string }) => {
      code = importTiled(map, opts.out, out);
    });
  tiled
    .command('export')
    .description('write a board as a Tiled map')
    .argument('<board>', 'a board name or file')
    .argument('<map>', 'the .tmj file to write')
    .action((board: string, map: string) => {
      code = exportTiled(board, map, out);
    });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    throw e;
  }
  return code;
}
