/** The Inkwell mark: a quill over an ink drop. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg className="logo" aria-hidden="true" viewBox="0 0 64 64" width={size} height={size}>
      <rect width="64" height="64" rx="14" fill="var(--brand)" />
      <path d="M20 46c8-2 14-10 18-22l6-10 2 2-5 11c-4 12-11 19-21 22z" fill="var(--brand-ink)" />
      <circle cx="18" cy="48" r="3" fill="var(--brand-ink)" />
    </svg>
  );
}
