/**
 * A race's creation sent again with its `Idempotency-Key` (a network retry) is answered as the
 * first was, and makes no second race (docs/server.md). What is kept of a key, for `KEY_TTL_MS`:
 *
 * - its hash (SHA-256), never the key: the key is the client's secret;
 * - the hash of the request's body (its JSON with keys in order): the same key with another body is
 *   refused, so a key someone guesses opens nothing without the very body it was sent with;
 * - the first answer, sealed (AES-256-GCM) with a key derived from the Idempotency-Key: it holds the
 *   moderator key and the seats' tokens, which the database otherwise keeps only as hashes.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** How long a key is kept: a retry later than this makes a new race. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A key's hash as stored. */
export const keyHash = (key: string): string => createHash('sha256').update(`roborally race key\n${key}`).digest('hex');

/** JSON with every object's keys in order: the same body however its keys were ordered or spaced. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A request body's hash as stored. */
export const bodyHash = (body: unknown): string => createHash('sha256').update(canonical(body)).digest('hex');

const sealingKey = (key: string): Buffer => Buffer.from(hkdfSync('sha256', key, '', 'roborally race answer', 32));

/** `answer` as JSON, sealed with `key`: base64url of IV, tag and ciphertext. */
export function seal(key: string, answer: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(key), iv);
  const text = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), text]).toString('base64url');
}

/** What `seal` sealed with the same key (it throws for another key or altered bytes). */
export function unseal<T>(key: string, sealed: string): T {
  const b = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(key), b.subarray(0, 12));
  decipher.setAuthTag(b.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(b.subarray(28)), decipher.final()]).toString('utf8')) as T;
}
