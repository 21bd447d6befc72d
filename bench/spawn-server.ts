/** The race server as the benchmarks run it: `node dist/server/src/main.js` in a process of its own. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../server/src/main.js', import.meta.url));

/** A server process (`npm start`) on 127.0.0.1 with `env` and Node's `nodeArgs`, once it listens. */
export async function spawnServer(env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, MAIN], { env: { ...process.env, HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => ((out += String(d)), out.includes('roborally server on') && resolve()));
    child.stderr!.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  return child;
}
