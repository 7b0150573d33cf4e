import { useState } from 'react';
import { AVATAR_FALLBACK_SIZE } from '../lib/constants.ts';

const COLORS = [
  '#5b3b8c',
  '#1f5f8b',
  '#2e6b3a',
  '#8a4b12',
  '#8c2f39',
  '#37474f',
  '#6a1b9a',
  '#00695c',
];

export function initialsOf(name: string): string {
  const parts = name
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters = parts.length > 1 ? parts[0]![0]! + parts[1]![0]! : (parts[0] ?? '?').slice(0, 2);
  return letters.toUpperCase();
}

/** The generated-initials image used when an avatar is missing or fails to load: an SVG of 512×512. */
export function initialsAvatar(name: string): string {
  const size = AVATAR_FALLBACK_SIZE;
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const color = COLORS[hash % COLORS.length];
  const text = initialsOf(name).replace(/[<>&"']/g, '');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="100%" height="100%" fill="${color}"/>` +
    `<text x="50%" y="50%" dy=".35em" text-anchor="middle" fill="#fff" font-family="system-ui,sans-serif" font-size="${size * 0.4}" font-weight="600">${text}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

interface AvatarProps {
  src: string | null | undefined;
  name: string;
  size?: number;
  /** Decorative when the name is shown beside it. */
  decorative?: boolean;
}

export function Avatar({ src, name, size = 40, decorative = false }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const useFallback = !src || failed === src;
  return (
    <img
      className="avatar"
      src={useFallback ? initialsAvatar(name) : src}
      alt={decorative ? '' : `Avatar of ${name}`}
      width={size}
      height={size}
      loading="lazy"
      onError={() => setFailed(src ?? null)}
    />
  );
}
