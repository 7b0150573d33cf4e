import { z } from 'zod';
import { FONT_SIZE_MAX, FONT_SIZE_MIN, LINE_WIDTHS, READER_THEMES } from './constants.ts';

const fontSize = z
  .number({ error: `font_size must be a whole number from ${FONT_SIZE_MIN} to ${FONT_SIZE_MAX}` })
  .int(`font_size must be a whole number from ${FONT_SIZE_MIN} to ${FONT_SIZE_MAX}`)
  .min(FONT_SIZE_MIN, `font_size must be a whole number from ${FONT_SIZE_MIN} to ${FONT_SIZE_MAX}`)
  .max(FONT_SIZE_MAX, `font_size must be a whole number from ${FONT_SIZE_MIN} to ${FONT_SIZE_MAX}`);

/** How the reader page looks for one signed-in user; kept on the server so it follows them. */
export const ReaderSettings = z
  .object({
    font_size: fontSize,
    line_width: z.enum(LINE_WIDTHS, {
      error: `line_width must be one of ${LINE_WIDTHS.join(', ')}`,
    }),
    theme: z.enum(READER_THEMES, { error: `theme must be one of ${READER_THEMES.join(', ')}` }),
  })
  .meta({ id: 'ReaderSettings' });
export type ReaderSettings = z.infer<typeof ReaderSettings>;

export const DEFAULT_READER_SETTINGS: ReaderSettings = {
  font_size: 18,
  line_width: 'medium',
  theme: 'light',
};

/** PUT /api/my/reader-settings: any subset; fields left out keep their current value. */
export const UpdateReaderSettingsBody = ReaderSettings.partial();
export type UpdateReaderSettingsBody = z.infer<typeof UpdateReaderSettingsBody>;
