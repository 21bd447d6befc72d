/** The second process the benchmarks load the disk and a core with (`--disk-load`). */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A process that keeps a disk and a core busy: 1 MiB writes, an fsync every 8 MiB, a 64 MiB file in `dir`. */
export function diskHog(dir: string): ChildProcess {
  const code = `const fs=require('fs');const f=fs.openSync(${JSON.stringify(join(dir, 'hog'))},'w');const b=Buffer.alloc(1<<20,7);let n=0;for(;;){fs.writeSync(f,b,0,b.length,(n%64)*b.length);if(++n%8===0)fs.fsyncSync(f);}`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
}
