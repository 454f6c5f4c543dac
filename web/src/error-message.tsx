import { ApiError } from './api.js';

/** The API's own message; a 403 says so plainly. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiError ? error.status : 0;
  return (
    <p class="error" role="alert">
      {status === 403 ? 'Not allowed: ' : status ? `Error ${status}: ` : ''}
      {message}
    </p>
  );
}
