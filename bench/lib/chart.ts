/** A plain SVG line chart: no library, a few panels side by side, log-scaled x (dataset size). */
export interface Series {
  label: string;
  points: Array<{ x: number; y: number }>;
  dashed?: boolean;
}

export interface Panel {
  title: string;
  yLabel: string;
  xLabel: string;
  series: Series[];
  /** Draws a horizontal line (a target) at this y. */
  guide?: { y: number; label: string };
  logY?: boolean;
}

const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
  '#bcbd22',
];
const W = 560;
const H = 380;
const M = { left: 64, right: 16, top: 36, bottom: 48 };

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const compact = (n: number) =>
  n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : `${Math.round(n * 100) / 100}`;

function niceTicks(min: number, max: number, count = 5): number[] {
  const span = max - min || 1;
  const step = 10 ** Math.floor(Math.log10(span / count));
  const unit = [1, 2, 5, 10].map((m) => m * step).find((s) => span / s <= count) ?? step * 10;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / unit) * unit; v <= max + 1e-9; v += unit)
    ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

function panelSvg(panel: Panel, offsetX: number, colorOf: (label: string) => string): string {
  const points = panel.series.flatMap((s) => s.points);
  if (points.length === 0) return '';
  const xs = points.map((p) => Math.log10(p.x));
  const ysRaw = [...points.map((p) => p.y), ...(panel.guide ? [panel.guide.y] : [])];
  const ys = panel.logY ? ysRaw.map((y) => Math.log10(Math.max(y, 0.1))) : ysRaw;
  const x0 = Math.min(...xs) - 0.15;
  const x1 = Math.max(...xs) + 0.15;
  const y0 = panel.logY ? Math.floor(Math.min(...ys)) : 0;
  const y1 = panel.logY ? Math.ceil(Math.max(...ys)) : Math.max(...ys) * 1.1 || 1;
  const px = (x: number) =>
    offsetX + M.left + ((Math.log10(x) - x0) / (x1 - x0)) * (W - M.left - M.right);
  const py = (y: number) => {
    const v = panel.logY ? Math.log10(Math.max(y, 0.1)) : y;
    return M.top + (1 - (v - y0) / (y1 - y0)) * (H - M.top - M.bottom);
  };
  const out: string[] = [];
  out.push(
    `<text x="${offsetX + W / 2}" y="20" text-anchor="middle" font-weight="bold">${escape(panel.title)}</text>`,
  );
  const yTicks = panel.logY
    ? Array.from({ length: y1 - y0 + 1 }, (_, i) => 10 ** (y0 + i))
    : niceTicks(0, y1);
  for (const t of yTicks) {
    out.push(
      `<line x1="${offsetX + M.left}" x2="${offsetX + W - M.right}" y1="${py(t)}" y2="${py(t)}" stroke="#ddd"/>`,
    );
    out.push(
      `<text x="${offsetX + M.left - 6}" y="${py(t) + 4}" text-anchor="end" font-size="11">${compact(t)}</text>`,
    );
  }
  const xTicks = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  for (const t of xTicks) {
    out.push(
      `<line x1="${px(t)}" x2="${px(t)}" y1="${M.top}" y2="${H - M.bottom}" stroke="#eee"/>`,
    );
    out.push(
      `<text x="${px(t)}" y="${H - M.bottom + 16}" text-anchor="middle" font-size="11">${compact(t)}</text>`,
    );
  }
  out.push(
    `<text x="${offsetX + (M.left + W - M.right) / 2}" y="${H - 10}" text-anchor="middle" font-size="12">${escape(panel.xLabel)}</text>`,
  );
  out.push(
    `<text transform="translate(${offsetX + 14},${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="12">${escape(panel.yLabel)}</text>`,
  );
  out.push(
    `<rect x="${offsetX + M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="none" stroke="#999"/>`,
  );
  if (panel.guide) {
    const y = py(panel.guide.y);
    out.push(
      `<line x1="${offsetX + M.left}" x2="${offsetX + W - M.right}" y1="${y}" y2="${y}" stroke="#000" stroke-dasharray="2,3"/>`,
    );
    out.push(
      `<text x="${offsetX + W - M.right - 4}" y="${y - 4}" text-anchor="end" font-size="11">${escape(panel.guide.label)}</text>`,
    );
  }
  for (const s of panel.series) {
    const color = colorOf(s.label);
    const sorted = [...s.points].sort((a, b) => a.x - b.x);
    const d = sorted
      .map((p, i) => `${i ? 'L' : 'M'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`)
      .join(' ');
    out.push(
      `<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6,4"' : ''}/>`,
    );
    for (const p of sorted)
      out.push(
        `<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3" fill="${color}"/>`,
      );
  }
  return out.join('\n');
}

/** Panels side by side with one shared legend underneath (colour per label, dashes per engine). */
export function lineChartSvg(panels: Panel[], legendNote = ''): string {
  const labels = [
    ...new Set(
      panels.flatMap((p) => p.series.map((s) => s.label.replace(/ \((sqlite|postgres)\)$/, ''))),
    ),
  ];
  const colorOf = (label: string) =>
    PALETTE[labels.indexOf(label.replace(/ \((sqlite|postgres)\)$/, '')) % PALETTE.length]!;
  const legendRows = Math.ceil(labels.length / 3);
  const width = W * panels.length;
  const height = H + 20 + legendRows * 18 + (legendNote ? 18 : 0);
  const legend = labels.map((label, i) => {
    const x = 20 + (i % 3) * (width / 3);
    const y = H + 16 + Math.floor(i / 3) * 18;
    return `<line x1="${x}" x2="${x + 24}" y1="${y - 4}" y2="${y - 4}" stroke="${colorOf(label)}" stroke-width="3"/><text x="${x + 30}" y="${y}" font-size="12">${escape(label)}</text>`;
  });
  const note = legendNote
    ? `<text x="20" y="${height - 6}" font-size="11" fill="#555">${escape(legendNote)}</text>`
    : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...panels.map((p, i) => panelSvg(p, i * W, colorOf)),
    ...legend,
    note,
    '</svg>',
  ].join('\n');
}
