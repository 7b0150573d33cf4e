import { createPortal } from 'react-dom';

/**
 * Announces an Atom feed of the page with <link rel="alternate"> in the document's <head>, where
 * feed readers and browsers look for it. A portal, because the Preact runtime does not hoist
 * <link> elements out of the body as React 19 does.
 */
export function FeedLink({ href, title }: { href: string; title: string }) {
  return createPortal(
    <link rel="alternate" type="application/atom+xml" title={title} href={href} />,
    document.head,
  );
}
