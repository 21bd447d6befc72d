/** What a request can get wrong, and the HTTP status that says so. */
export interface Refusal {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503;
  readonly field: string;
  readonly message: string;
}

export type Answer<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export const yes = <T>(value: T): Answer<T> => ({ ok: true, value });
export const no = (status: Refusal['status'], field: string, message: string): Answer<never> => ({ ok: false, refusal: { status, field, message } });
