/** A value or an error, never a throw: the engine's public functions return these. */
export type Result<T, E = EngineError> = { ok: true; value: T } | { ok: false; error: E };

/** What went wrong, and where: `field` is a path such as `robots[1].x` or `programs.A[2]`. */
export interface EngineError {
  readonly field: string;
  readonly message: string;
}

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = (field: string, message: string): Result<never> => ({
  ok: false,
  error: { field, message },
});
