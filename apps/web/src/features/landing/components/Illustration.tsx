/** Small decorative drawings for the landing page; no image requests, themed by CSS variables. */
export function Illustration({ kind }: { kind: 'shelf' | 'bell' | 'quill' }) {
  return (
    <svg className="illustration" viewBox="0 0 240 160" aria-hidden="true">
      <rect x="0" y="0" width="240" height="160" rx="18" fill="var(--surface-2)" />
      {kind === 'shelf' && (
        <g>
          <rect x="30" y="120" width="180" height="8" rx="3" fill="var(--muted)" />
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <rect
              key={i}
              x={40 + i * 27}
              y={48 + (i % 3) * 10}
              width="20"
              height={72 - (i % 3) * 10}
              rx="3"
              fill={['#8e24aa', '#1565c0', '#2e7d32', '#bf360c', '#ad1457', '#00695c'][i]}
            />
          ))}
        </g>
      )}
      {kind === 'bell' && (
        <g fill="var(--brand)">
          <path d="M120 30c-22 0-36 17-36 40v26l-12 14h96l-12-14V70c0-23-14-40-36-40Z" />
          <circle cx="120" cy="122" r="10" />
          <circle cx="172" cy="42" r="14" fill="#bf360c" />
        </g>
      )}
      {kind === 'quill' && (
        <g>
          <rect
            x="50"
            y="30"
            width="110"
            height="100"
            rx="8"
            fill="var(--surface)"
            stroke="var(--muted)"
          />
          {[0, 1, 2, 3, 4].map((i) => (
            <rect
              key={i}
              x="64"
              y={48 + i * 14}
              width={i === 4 ? 50 : 82}
              height="5"
              rx="2"
              fill="var(--muted)"
            />
          ))}
          <path
            d="M150 120c16-6 30-30 42-72l6-12 4 3-6 14c-10 38-24 62-42 70z"
            fill="var(--brand)"
          />
        </g>
      )}
    </svg>
  );
}
