/** An operation failure: answered as HTTP 400 with the message as a plain JSON string. */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
}

/** An authentication failure: answered as HTTP 401 with the message as a plain JSON string. */
export class AuthFailure extends Error {
  override readonly name = 'AuthFailure';
}

/** A session that timed out, answered as IIS does (`expired-440`): HTTP 440 "Login Time-out", plain text. */
export class SessionTimeout extends Error {
  override readonly name = 'SessionTimeout';
}

/** Throws an ApiFailure (400). Typed `never` so callers narrow after it. */
export function fail(message: string): never {
  throw new ApiFailure(message);
}

/** Throws an AuthFailure (401). */
export function unauthorized(message: string): never {
  throw new AuthFailure(message);
}
