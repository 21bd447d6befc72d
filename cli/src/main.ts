/** The `roborally` command line. */
import { Command, CommanderError } from 'commander';
import { runCheck } from './check.js';

export async function main(argv: readonly string[]): Promise<number> {
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
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    throw e;
  }
  return code;
}
