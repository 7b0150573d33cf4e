import type { BookStats } from '@inkwell/contract';
import uPlot from 'uplot';
import type { ThemeColor } from './Chart.tsx';

/*
 * The Stats page's charts as uPlot options and data: followers over time, the retention curve,
 * and readers and likes per chapter. A figure under the privacy floor is null, which uPlot
 * draws as a gap.
 */

const axes = (color: ThemeColor, x: Partial<uPlot.Axis> = {}): uPlot.Axis[] => [
  { stroke: color('--muted'), grid: { stroke: color('--border') }, ...x },
  { stroke: color('--muted'), grid: { stroke: color('--border') } },
];

/** An x axis with one tick per chapter, named by its number. */
const chapterAxis = (orders: number[]): Partial<uPlot.Axis> => ({
  splits: () => orders,
  values: (_plot, ticks) => ticks.map((tick) => `Ch. ${tick}`),
});

export function followersChart(stats: BookStats) {
  const data: uPlot.AlignedData = [
    stats.followers.daily.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
    stats.followers.daily.map((day) => day.count),
  ];
  const options = (color: ThemeColor): Omit<uPlot.Options, 'width' | 'height'> => ({
    legend: { show: false },
    scales: { y: { range: (_plot, _min, max) => [0, Math.max(1, max)] } },
    axes: axes(color),
    series: [{}, { label: 'Followers', stroke: color('--primary'), width: 2 }],
  });
  return { data, options };
}

export function retentionChart(stats: BookStats) {
  const orders = stats.retention.map((point) => point.order);
  const data: uPlot.AlignedData = [
    orders,
    stats.retention.map((point) => (point.share === null ? null : point.share * 100)),
  ];
  const options = (color: ThemeColor): Omit<uPlot.Options, 'width' | 'height'> => ({
    legend: { show: false },
    scales: { x: { time: false }, y: { range: [0, 100] } },
    axes: [
      ...axes(color, chapterAxis(orders)).slice(0, 1),
      {
        stroke: color('--muted'),
        grid: { stroke: color('--border') },
        values: (_p, ticks) => ticks.map((t) => `${t}%`),
      },
    ],
    series: [
      {},
      {
        label: "Share of chapter 1's readers",
        stroke: color('--primary'),
        width: 2,
        points: { show: true },
      },
    ],
  });
  return { data, options };
}

export function readersChart(stats: BookStats) {
  const orders = stats.chapters.map((chapter) => chapter.order);
  const data: uPlot.AlignedData = [
    orders,
    stats.chapters.map((chapter) => chapter.readers),
    stats.chapters.map((chapter) => chapter.likes),
  ];
  const bars = (align: -1 | 1) => uPlot.paths.bars!({ size: [0.35, 48], align });
  const options = (color: ThemeColor): Omit<uPlot.Options, 'width' | 'height'> => ({
    legend: { show: true },
    scales: {
      x: { time: false, range: (_plot, min, max) => [min - 0.5, max + 0.5] },
      y: { range: (_plot, _min, max) => [0, Math.max(1, max)] },
    },
    axes: axes(color, chapterAxis(orders)),
    series: [
      { label: 'Chapter' },
      { label: 'Readers', fill: color('--primary'), stroke: color('--primary'), paths: bars(-1) },
      { label: 'Likes', fill: color('--success'), stroke: color('--success'), paths: bars(1) },
    ],
  });
  return { data, options };
}
