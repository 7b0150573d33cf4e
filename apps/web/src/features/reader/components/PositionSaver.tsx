import { useReadingPosition } from '../useReadingPosition.ts';

/**
 * Saves the signed-in reader's place as they scroll. A component of its own so the reader page can
 * load it lazily: visitors who are not signed in never download it.
 */
export function PositionSaver(props: Parameters<typeof useReadingPosition>[0]) {
  useReadingPosition(props);
  return null;
}
