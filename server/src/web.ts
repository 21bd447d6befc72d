/**
 * The web client: its two pages and the browser's modules, compiled by tsc from web/src and the
 * shared render/src and engine/src (dist/web/src, dist/render/src, dist/engine/src). Only those
 * folders are served, by a strict pattern of names, so no path can leave them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** dist/ (this module runs from dist/server/src) and the repository's web/public. */
const DIST = fileURLToPath(new URL('../../', import.meta.url));
const PUBLIC = fileURLToPath(new URL('../../../web/public/', import.meta.url));

/** A module path under /js/: one of three folders, then names of letters, digits, _ and -. */
const MODULE = /^(web|render|engine)\/src\/(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]+\.js$/;
const ASSETS: Record<string, string> = { 'app.css': 'text/css; charset=utf-8' };

/** Static files are read once: they change only with a new build, which restarts the server. */
const cache = new Map<string, Promise<Buffer | null>>();
const load = (file: string) => {
  let got = cache.get(file);
  if (!got) {
    got = readFile(file).catch(() => null);
    cache.set(file, got);
  }
  return got;
};

async function sendFile(reply: FastifyReply, file: string, type: string, what: string): Promise<FastifyReply> {
  const body = await load(file);
  if (!body) return reply.code(404).send({ error: { field: 'path', message: `no ${what} (was the web client built? npm run build)` } });
  return reply.type(type).header('cache-control', 'no-cache').send(body);
}

/** True for the paths of static files, which the rate limit leaves alone (a page loads many modules). */
export const isStatic = (url: string): boolean => url.startsWith('/js/') || url.startsWith('/static/');

export function registerWeb(app: FastifyInstance): void {
  app.get('/', (_req, reply) => sendFile(reply, `${PUBLIC}index.html`, 'text/html; charset=utf-8', 'home page'));
  // The invite link of a seat (?seat=N&token=T) and the public link of a race (no token).
  app.get('/race/:id', (_req, reply) => sendFile(reply, `${PUBLIC}race.html`, 'text/html; charset=utf-8', 'race page'));
  app.get<{ Params: { name: string } }>('/static/:name', (req, reply) => {
    const type = ASSETS[req.params.name];
    if (!type) return reply.code(404).send({ error: { field: 'path', message: `no static file "${req.params.name}"` } });
    return sendFile(reply, `${PUBLIC}${req.params.name}`, type, req.params.name);
  });
  app.get<{ Params: { '*': string } }>('/js/*', (req, reply) => {
    const path = req.params['*'];
    if (!MODULE.test(path)) return reply.code(404).send({ error: { field: 'path', message: `no module "${path}"` } });
    return sendFile(reply, `${DIST}${path}`, 'text/javascript; charset=utf-8', `module "${path}"`);
  });
}
