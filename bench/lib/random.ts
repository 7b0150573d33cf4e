/** mulberry32: a small seeded PRNG, so a dataset of a given size and seed is the same every time. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const intBetween = (random: () => number, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

/** Skewed pick in [0, n): low indexes are much more likely, like readers crowding a few hits. */
export const skewedIndex = (random: () => number, n: number, skew = 3) =>
  Math.min(n - 1, Math.floor(n * random() ** skew));

/** Roughly normal (Irwin–Hall of 4), scaled to mean and standard deviation. */
export function normalish(random: () => number, mean: number, sd: number): number {
  const sum = random() + random() + random() + random();
  return mean + (sum - 2) * sd * Math.sqrt(3);
}

export function shuffle<T>(random: () => number, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
