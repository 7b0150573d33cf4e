import sharp from 'sharp';

/** A real image of the given size and format, made in memory for upload tests. */
export async function makeImage(
  format: 'png' | 'jpeg',
  width = 64,
  height = 48,
  options: { alpha?: boolean } = {},
): Promise<Buffer> {
  const image = sharp({
    create: {
      width,
      height,
      channels: options.alpha ? 4 : 3,
      background: options.alpha ? { r: 200, g: 30, b: 30, alpha: 0.5 } : { r: 30, g: 120, b: 200 },
    },
  });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/** A multipart/form-data body carrying one file; answers payload and headers for app.inject. */
export function multipart(field: string, file: Buffer, filename: string, contentType: string) {
  const boundary = `----inkwell${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, file, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
