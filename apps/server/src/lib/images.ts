import sharp from 'sharp';
import { badRequest } from './errors.ts';

/** Largest decoded image accepted: 40 megapixels. A decompression bomb fails here, cheaply. */
const MAX_INPUT_PIXELS = 40_000_000;

const SIZES = {
  cover: { width: 600, height: 900, fit: 'inside' as const },
  avatar: { width: 512, height: 512, fit: 'cover' as const },
};

export type ImageKind = keyof typeof SIZES;

const isPng = (b: Buffer) =>
  b.length > 8 &&
  b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

export const UNSUPPORTED_IMAGE = 'The image must be a PNG or JPEG file';

/**
 * Verifies an upload is really a PNG or JPEG (by its bytes, not its name or header), decodes it
 * under a pixel limit, drops all metadata, resizes and re-encodes. Never serves a user's raw bytes.
 */
export async function processImage(
  input: Buffer,
  kind: ImageKind,
): Promise<{ bytes: Buffer; extension: 'png' | 'jpg' }> {
  const png = isPng(input);
  if (!png && !isJpeg(input)) throw badRequest(UNSUPPORTED_IMAGE);
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const metadata = await image.metadata();
    if (metadata.format !== 'png' && metadata.format !== 'jpeg')
      throw badRequest(UNSUPPORTED_IMAGE);
    const resized = image.rotate().resize({ ...SIZES[kind], withoutEnlargement: true });
    // Covers and avatars with transparency stay PNG; everything else becomes a compact JPEG.
    const bytes =
      png && metadata.hasAlpha
        ? await resized.png({ compressionLevel: 9 }).toBuffer()
        : await resized
            .flatten({ background: '#ffffff' })
            .jpeg({ quality: 85, mozjpeg: true })
            .toBuffer();
    return { bytes, extension: png && metadata.hasAlpha ? 'png' : 'jpg' };
  } catch (error) {
    if (
      error instanceof Error &&
      'code' in error &&
      (error as { code: unknown }).code === 'validation'
    )
      throw error;
    const message = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(message))
      throw badRequest('The image is too large in pixels (40 megapixels at most)');
    throw badRequest('The image could not be read; it may be damaged or truncated');
  }
}
