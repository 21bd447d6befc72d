/**
 * The web client: its two pages, the favicon, and the bundled assets (dist/web/assets, made by
 * `npm run build`, web/build/bundle.ts): each asset is named by its content's hash, so it is served
 * with a year's immutable cache life; the pages name the current ones and are revalidated by
 * their ETag. Everything is sent brotli- or gzip-compressed when the browser takes it, compressed
 * once per process. Only the names in the build's manifest are served: no path can leave it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** dist/ (this module runs from dist/server/src) and the repository's web/public. */
const DIST = fileURLToPath(new URL('../../', import.meta.url));
const PUBLIC = fileURLToPath(new URL('../../../web/public/', import.meta.url));
const ASSETS = `${DIST}web/assets/`;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml', html: 'text/html; charset=utf-8' };

/** A file ready to send: its bytes, compressed twice, and its ETag. */
export interface Prepared {
  readonly type: string;
  readonly raw: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
  readonly etag: string;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compresses a file once (off the event loop: a course picture of 400 KB takes a second at brotli's best). */
export async function prepare(body: Buffer, type: string): Promise<Prepared> {
  const [br, gz] = await Promise.all([
    brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: 9 }),
  ]);
  return { type, raw: body, br, gzip: gz, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/** Sends a prepared file: 304 to a matching If-None-Match, else the best encoding the browser accepts. */
export function send(req: FastifyRequest, reply: FastifyReply, f: Prepared, cache: string): FastifyReply {
  reply.header('cache-control', cache).header('etag', f.etag).header('vary', 'accept-encoding');
  if (req.headers['if-none-match'] === f.etag) return reply.code(304).send();
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const [body, encoding] = /\bbr\b/.test(accepts) ? [f.br, 'br'] : /\bgzip\b/.test(accepts) ? [f.gzip, 'gzip'] : [f.raw, null];
  if (encoding) reply.header('content-encoding', encoding);
  return reply.type(f.type).send(body);
}

export function registerWeb(app: FastifyInstance): void {
  // Read and compressed once per server: they change only with a new build, which restarts it.
  const cache = new Map<string, Promise<Prepared | null>>();
  const once = (key: string, make: () => Promise<Prepared | null>) => {
    let got = cache.get(key);
    if (!got) {
      // A file that could not be read is tried again at the next request, not refused for good.
      got = make().catch(() => {
        cache.delete(key);
        return null;
      });
      cache.set(key, got);
    }
    return got;
  };
  const manifest = () => once('manifest', async () => prepare(await readFile(`${ASSETS}manifest.json`), 'application/json'))
    .then((m) => (m ? (JSON.parse(m.raw.toString('utf8')) as Record<string, string>) : null));
  const missing = (reply: FastifyReply, what: string) =>
    reply.code(404).send({ error: { field: 'path', message: `no ${what} (was the web client built? npm run build)` } });

  /** A page: its entry's script and the style sheet by their hashed names. */
  const page = (file: string, entry: string) => async (req: FastifyRequest, reply: FastifyReply) => {
    const m = await manifest();
    const f = m && await once(file, async () => {
      const html = (await readFile(`${PUBLIC}${file}`, 'utf8'))
        .replace('/assets/app.css', `/assets/${m['app.css']}`)
        .replace(`/assets/${entry}`, `/assets/${m[entry]}`);
      return prepare(Buffer.from(html), TYPES.html!);
    });
    return f ? send(req, reply, f, 'no-cache') : missing(reply, 'page');
  };
  app.get('/', page('index.html', 'home.js'));
  // The invite link of a seat (?seat=N&token=T) and the public link of a race (no token).
  app.get('/race/:id', page('race.html', 'race.js'));
  // The course editor: a course of one's own, raced at once (docs/web.md).
  app.get('/editor', page('editor.html', 'editor.js'));
  const favicon = async (req: FastifyRequest, reply: FastifyReply) => {
    const f = await once('favicon', async () => prepare(await readFile(`${PUBLIC}favicon.svg`), TYPES.svg!));
    return f ? send(req, reply, f, 'public, max-age=86400') : missing(reply, 'favicon');
  };
  app.get('/favicon.svg', favicon);
  app.get('/favicon.ico', favicon);
  app.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const m = await manifest();
    const name = req.params.name;
    // Only the files the build made: the entries and the chunks they share.
    const ok = m && /^[A-Za-z0-9_-]+\.(js|css)$/.test(name) && Object.values(m).includes(name);
    if (!ok) return reply.code(404).send({ error: { field: 'path', message: `no asset "${name}"` } });
    const f = await once(name, async () => prepare(await readFile(`${ASSETS}${name}`), TYPES[name.split('.').pop()!]!));
    return f ? send(req, reply, f, IMMUTABLE) : missing(reply, `asset "${name}"`);
  });
}
