/**
 * Zipf-distributed picks in [0, n): rank k is chosen with probability proportional to 1 / (k+1)^s.
 * With s near 1 a few items take most of the traffic and a long tail shares the rest, as readers
 * crowd a few popular serials and their first chapters.
 */
export function zipfSampler(n: number, s: number, random: () => number): () => number {
  if (n < 1) throw new Error('zipfSampler needs at least one item');
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) {
    total += 1 / (k + 1) ** s;
    cumulative[k] = total;
  }
  return () => {
    const target = random() * total;
    // The first rank whose cumulative weight reaches the target.
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
