import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Reads a colour of the current theme (canvas cannot use CSS variables). */
export type ThemeColor = (name: string) => string;

const HEIGHT = 220;

/** Canvas drawing is there (not in jsdom): without it the data table stands alone. */
const canDraw = () =>
  typeof ResizeObserver !== 'undefined' &&
  typeof HTMLCanvasElement !== 'undefined' &&
  !/jsdom/i.test(navigator.userAgent);

/**
 * A uPlot chart (docs/decisions/0034-reader-stats.md) sized to its box. It is a picture for
 * sighted readers only (aria-hidden): every chart on the Stats page has a data table beside it.
 */
export function Chart({
  options,
  data,
}: {
  options: (color: ThemeColor) => Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || !canDraw()) return;
    const style = getComputedStyle(element);
    const color: ThemeColor = (name) => style.getPropertyValue(name).trim() || '#4b2e83';
    const plot = new uPlot(
      { ...options(color), width: element.clientWidth || 600, height: HEIGHT },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: element.clientWidth, height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [options, data]);
  return <div ref={box} className="stats-chart" aria-hidden="true" data-testid="stats-chart" />;
}
