/**
 * A request URL as the logs may keep it: the secrets some URLs carry are replaced. WebSocket URLs
 * carry the session token (`?token=`) or a ticket perhaps not used yet (`?ticket=`), and a
 * reader's private feed address is its own secret (`/api/feeds/{token}.atom`); logs travel
 * further than the server (files, collectors, support).
 */
export function urlForLog(url: string): string {
  return url
    .replace(/([?&](?:token|ticket)=)[^&#]*/gi, '$1[redacted]')
    .replace(/(\/api\/feeds\/)[^/?#]+(\.atom)/g, '$1[redacted]$2');
}
