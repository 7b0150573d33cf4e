// What the 'react-dom/client' alias points to (see vite.config.ts). Besides createRoot, it makes
// Preact run useEffect callbacks in a microtask after each commit, as React runs them before any
// timer, instead of after the next animation frame: @tiptap/react's useEditor destroys its first
// editor on a 1 ms timer unless its mount effect has run by then, and the chapter editor's effects
// would then read a destroyed editor. Re-run e2e/editor.spec.ts when upgrading preact or TipTap.
import { options } from 'preact';

(options as { requestAnimationFrame?: (cb: () => void) => void }).requestAnimationFrame = (cb) =>
  queueMicrotask(cb);

export * from 'preact/compat/client';
export { default } from 'preact/compat/client';
