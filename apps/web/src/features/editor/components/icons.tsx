/** The few line icons the editor uses, drawn inline so they follow the text colour. */
const PATHS = {
  bullets: 'M4 6.5h.01M4 12h.01M4 17.5h.01M8.5 6.5H20M8.5 12H20M8.5 17.5H20',
  numbers:
    'M4 5h1.5v4M4 9h3M4 14.5c0-.8.7-1.5 1.5-1.5S7 13.7 7 14.5c0 1-3 1.8-3 3.5h3M10 6.5h10M10 12h10M10 17.5h10',
  save: 'M5 4h11l3 3v13H5zM8 4v5h7V4M8 20v-6h8v6',
  pencil: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  check: 'm5 12.5 4.5 4.5L19 7.5',
  box: 'M5 5h14v14H5z',
  boxChecked: 'M5 5h14v14H5zM8.5 12l2.5 2.5 4.5-5',
  trash: 'M5 7h14M10 7V4.5h4V7M7 7l1 13h8l1-13M10.5 10.5v6M13.5 10.5v6',
  warning: 'M12 4 2.5 20h19zM12 10v4.5M12 17.2v.3',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
