// Where the explorer is served. The page's own files are not API calls: they are served from
// memory like the health checks and are left out of the per-IP rate limits (main.ts passes
// EXPLORER_FILE_PATHS to the limiter), so that the page's budget of 2 requests/s and 60/min is
// spent on API requests only (docs/explorer.md).

/** The page itself. */
export const EXPLORER_PATH = '/explorer';
/** The bundled script and style sheet, built by scripts/build-runtime.mjs (or in memory). */
export const EXPLORER_SCRIPT_PATH = '/explorer/assets/explorer.js';
export const EXPLORER_STYLE_PATH = '/explorer/assets/explorer.css';

/** Every path the explorer router answers: exempt from the rate limits. */
export const EXPLORER_FILE_PATHS: readonly string[] = [EXPLORER_PATH, `${EXPLORER_PATH}/`, EXPLORER_SCRIPT_PATH, EXPLORER_STYLE_PATH];
