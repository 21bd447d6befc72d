/**
 * `npm run bench:commit`: what a commit costs on this machine's disk, alone and with the server
 * benchmark's second process loading the disk and a core (`diskHog`, server.bench.ts's
 * `--disk-load`): an fdatasync of an 8 KiB page written over a 16 MiB file written before, page
 * after page (as PostgreSQL flushes its WAL: its segments are written ahead, so a flush changes no
 * file's size), and PostgreSQL's commit of a one-row insert with `synchronous_commit` on (it
 * waits for that flush) and off (`DB_SYNCHRONOUS_COMMIT=off`, docs/server.md), and a `pg_notify`
 * alone (a transaction that writes no row: it waits for no flush), each one after the other on one
 * connection; then commits at the server benchmark's rate (1,000 races make about 105 commits a
 * second), one every 10 ms on a pool of 10 connections as the server's, on and off. Each as p50 /
 * p90 / p99 / max over `--n` tries.
 *
 *   npm run bench:commit -- [--n 1000]
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { diskHog } from './disk-hog.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const i = process.argv.indexOf('--n');
const N = i >= 0 ? Number(process.argv[i + 1]) : 1000;

const at = (xs: readonly number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!.toFixed(1);
const spread = (xs: number[]) => {
  xs.sort((a, b) => a - b);
  return `${at(xs, 0.5)} / ${at(xs, 0.9)} / ${at(xs, 0.99)} / ${xs[xs.length - 1]!.toFixed(1)} ms`;
};
const timed = async (xs: number[], f: () => unknown) => {
  const t = performance.now();
  await f();
  xs.push(performance.now() - t);
};

/** Commits of a one-row insert started every `everyMs` on `pool` (`off`: with synchronous_commit off), each one's time. */
async function paced(pool: pg.Pool, table: string, off: boolean, everyMs: number): Promise<number[]> {
  const times: number[] = [];
  const commits: Promise<void>[] = [];
  for (let k = 0; k < N; k++) {
    commits.push(timed(times, async () => {
      const c = await pool.connect();
      try {
        await c.query('begin');
        if (off) await c.query('set local synchronous_commit = off');
        await c.query(`insert into ${table} values (1)`);
        await c.query('commit');
      } finally {
        c.release();
      }
    }));
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await Promise.all(commits);
  return times;
}

async function row(dir: string, table: string, c: pg.Client, pool: pg.Pool, label: string): Promise<void> {
  const fsyncs: number[] = [], on: number[] = [], off: number[] = [], notifies: number[] = [];
  const file = join(dir, 'written');
  const f = openSync(file, 'w');
  const page = Buffer.alloc(8192, 1);
  const pages = 2048;
  for (let k = 0; k < pages; k++) writeSync(f, page);
  fdatasyncSync(f);
  for (let k = 0; k < N; k++) {
    writeSync(f, page, 0, page.length, (k % pages) * page.length);
    await timed(fsyncs, () => fdatasyncSync(f));
  }
  closeSync(f);
  rmSync(file);
  for (let k = 0; k < N; k++) {
    await timed(on, () => c.query(`insert into ${table} values (1)`));
    await c.query('begin');
    await c.query('set local synchronous_commit = off');
    await c.query(`insert into ${table} values (1)`);
    await timed(off, () => c.query('commit'));
    await timed(notifies, () => c.query(`select pg_notify('${table}', '')`));
  }
  const onPaced = await paced(pool, table, false, 10);
  const offPaced = await paced(pool, table, true, 10);
  const load = loadavg().slice(0, 2).map((x) => x.toFixed(1)).join(' / ');
  console.log(`| ${label} | ${spread(fsyncs)} | ${spread(on)} | ${spread(off)} | ${spread(notifies)} | ${spread(onPaced)} | ${spread(offPaced)} | ${load} |`);
}

const dir = mkdtempSync(join(tmpdir(), 'rr-commit-'));
const table = `rr_commit_${Date.now().toString(36)}`;
const c = new pg.Client({ connectionString: PG_URL });
await c.connect();
await c.query(`create table ${table} (a int)`);
const pool = new pg.Pool({ connectionString: PG_URL, max: 10 });
try {
  console.log(`Commits: ${N} tries each, p50 / p90 / p99 / max\n`);
  console.log('| disk | fdatasync of an 8 KiB page | PostgreSQL commit, synchronous_commit on | off | pg_notify alone | one every 10 ms on 10 connections, on | off | load average 1 / 5 min |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  await row(dir, table, c, pool, 'alone');
  const hog = diskHog(dir);
  try {
    await row(dir, table, c, pool, 'busy (a second process writing, an fsync every 8 MiB)');
  } finally {
    hog.kill();
  }
} finally {
  await c.query(`drop table ${table}`);
  await c.end();
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
}
