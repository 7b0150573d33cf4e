/** BASE_PATH as the server normalises it ('/', '/inkwell'), returned with a trailing slash for Vite. */
export function basePathFromEnv(value) {
  const trimmed = (value ?? '/').replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}
