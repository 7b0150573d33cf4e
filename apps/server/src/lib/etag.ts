/**
 * Whether an `If-None-Match` header lists `etag` (RFC 9110, 13.1.2: tags compared weakly, so a
 * `W/` prefix is ignored). `*` is not taken as a match: it would need to know the resource
 * exists, and a full answer is always a correct one; browsers revalidate with the tag they hold.
 */
export function ifNoneMatchLists(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return header.split(',').some((tag) => bare(tag) === wanted);
}
