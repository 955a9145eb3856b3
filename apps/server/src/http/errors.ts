// Business errors carry a message key from the domain catalogue; the error handler translates it
// into the caller's language and wraps it in the envelope.

export class ApiError extends Error {
  constructor(
    /** meta.code in the envelope */
    readonly code: number,
    /** message key in the domain message catalogue (or a literal text when no key fits) */
    readonly key: string,
    /** HTTP status */
    readonly status = 400,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

/** No session or an expired one: the web reads meta.message "407" and goes to login. */
export class SessionExpired extends ApiError {
  constructor() {
    super(407, '407', 401);
  }
}

export const noPermission = () => new ApiError(403, 'noPermissionAccount', 403);
export const notFound = (what = 'noData') => new ApiError(404, what, 404);
export const badRequest = (key: string, params: Record<string, string | number> = {}) =>
  new ApiError(400, key, 400, params);
